"""COCOBboxDataset: MS COCO detection."""

from __future__ import annotations

from vision.datasets.coco.coco_instances_base_dataset import COCOInstancesBaseDataset


class COCOBboxDataset(COCOInstancesBaseDataset):
    """Bounding box dataset for `MS COCO`_.

    .. _`MS COCO`: http://cocodataset.org/#home

    Args:
        data_dir (str): The COCO directory, holding ``images/{split}{year}/`` and
            ``annotations/instances_{split}{year}.json``. If ``'auto'``, the data is downloaded
            (once, checked against its checksum) under ``$VISION_HOME/datasets/coco``.
        split ({'train', 'val', 'minival', 'valminusminival'}): The split; ``minival`` and
            ``valminusminival`` exist for 2014 only.
        year ({'2014', '2017'}): The release.
        use_crowded (bool): If True, crowd annotations (a box around many objects) are
            included.
        return_area (bool): If True, each example also has the areas of the objects' masks.
        return_crowded (bool): If True, each example also has a boolean array telling which
            boxes are crowd annotations.

    This dataset returns the following data.

    ============ ========= ======= ==================================
    name         shape     dtype   format
    ============ ========= ======= ==================================
    ``img``      (3, H, W) float32 RGB, [0, 255]
    ``bbox``     (R, 4)    float32 (y_min, x_min, y_max, x_max)
    ``label``    (R,)      int32   [0, #fg_class - 1]
    ``area``     (R,)      float32 only if ``return_area``
    ``crowded``  (R,)      bool    only if ``return_crowded``
    ============ ========= ======= ==================================

    Boxes without area are dropped. The label of :math:`l` is the :math:`l`-th category of the
    file (:data:`coco_bbox_label_names` for the official files). The annotations are read
    without decoding the image by ``dataset.slice[:, ('bbox', 'label')]``.

    Raises:
        ValueError: ``split`` or ``year`` is not one of the above.
        AnnotationError: The JSON file is not a COCO annotation file (when the dataset is
            made), or an annotation is malformed, e.g. a box outside its image (when its
            example is read).

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train', year: str = '2017',
                 use_crowded: bool = False, return_area: bool = False,
                 return_crowded: bool = False) -> None:
        super().__init__(data_dir, split, year, use_crowded, 'COCOBboxDataset')
        keys = ('img', 'bbox', 'label')
        if return_area:
            keys += ('area',)
        if return_crowded:
            keys += ('crowded',)
        self.keys = keys

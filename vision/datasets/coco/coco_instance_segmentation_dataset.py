"""COCOInstanceSegmentationDataset: MS COCO instance segmentation."""

from __future__ import annotations

from vision.datasets.coco.coco_instances_base_dataset import COCOInstancesBaseDataset


class COCOInstanceSegmentationDataset(COCOInstancesBaseDataset):
    """Instance segmentation dataset for `MS COCO`_.

    .. _`MS COCO`: http://cocodataset.org/#home

    Polygons and run-length encodings (compressed or not) are decoded here; pycocotools is not
    needed. Polygons are filled as ChainerCV fills them (Pillow's ``ImageDraw.polygon``).

    Args:
        data_dir (str): The COCO directory, holding ``images/{split}{year}/`` and
            ``annotations/instances_{split}{year}.json``. If ``'auto'``, the data is downloaded
            (once, checked against its checksum) under ``$VISION_HOME/datasets/coco``.
        split ({'train', 'val', 'minival', 'valminusminival'}): The split; ``minival`` and
            ``valminusminival`` exist for 2014 only.
        year ({'2014', '2017'}): The release.
        use_crowded (bool): If True, crowd annotations (a mask over many objects) are
            included.
        return_crowded (bool): If True, each example also has a boolean array telling which
            masks are crowd annotations.
        return_area (bool): If True, each example also has the areas of the masks.
        return_bbox (bool): If True, each example also has the boxes of the objects.

    This dataset returns the following data.

    ============ ========= ======= ==================================
    name         shape     dtype   format
    ============ ========= ======= ==================================
    ``img``      (3, H, W) float32 RGB, [0, 255]
    ``mask``     (R, H, W) bool    --
    ``label``    (R,)      int32   [0, #fg_class - 1]
    ``area``     (R,)      float32 only if ``return_area``
    ``crowded``  (R,)      bool    only if ``return_crowded``
    ``bbox``     (R, 4)    float32 only if ``return_bbox``
    ============ ========= ======= ==================================

    Annotations whose box has no area are dropped from every key.

    Raises:
        ValueError: ``split`` or ``year`` is not one of the above.
        AnnotationError: The JSON file is not a COCO annotation file (when the dataset is
            made), or an annotation is malformed, e.g. a mask of the wrong size (when its
            example is read).

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train', year: str = '2017',
                 use_crowded: bool = False, return_crowded: bool = False,
                 return_area: bool = False, return_bbox: bool = False) -> None:
        super().__init__(data_dir, split, year, use_crowded, 'COCOInstanceSegmentationDataset')
        keys = ('img', 'mask', 'label')
        if return_area:
            keys += ('area',)
        if return_crowded:
            keys += ('crowded',)
        if return_bbox:
            keys += ('bbox',)
        self.keys = keys

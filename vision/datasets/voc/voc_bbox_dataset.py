"""VOCBboxDataset: PASCAL VOC detection."""

from __future__ import annotations

import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets._annotation import read_id_list
from vision.datasets.voc import voc_utils
from vision.utils import read_image


class VOCBboxDataset(GetterDataset):
    """Bounding box dataset for PASCAL `VOC`_.

    .. _`VOC`: http://host.robots.ox.ac.uk/pascal/VOC/voc2012/

    Args:
        data_dir (str): The ``VOCdevkit/VOC<year>`` directory. If ``'auto'``, the data is
            downloaded (once, checked against its sha256) under ``$VISION_HOME/datasets/voc``.
        split ({'train', 'val', 'trainval', 'test'}): The split; ``'test'`` exists for 2007
            only.
        year ({'2007', '2012'}): The year of the challenge.
        use_difficult (bool): If True, objects marked difficult are included.
        return_difficult (bool): If True, each example also has a boolean array telling which
            boxes are difficult.

    This dataset returns the following data.

    ============== ========= ======= ==================================
    name           shape     dtype   format
    ============== ========= ======= ==================================
    ``img``        (3, H, W) float32 RGB, [0, 255]
    ``bbox``       (R, 4)    float32 (y_min, x_min, y_max, x_max)
    ``label``      (R,)      int32   [0, #fg_class - 1]
    ``difficult``  (R,)      bool    only if ``return_difficult``
    ============== ========= ======= ==================================

    The coordinates of the files are 1-based; the boxes are 0-based pixel indices
    ``(ymin - 1, xmin - 1, ymax - 1, xmax - 1)``, as in ChainerCV. The annotations are read
    without decoding the image by ``dataset.slice[:, ('bbox', 'label')]``.

    Raises:
        ValueError: ``split`` or ``year`` is not one of the above.
        AnnotationError: When an example is read, if its XML file is malformed (a missing
            field, a class not in :data:`voc_bbox_label_names`, a box outside the image).

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train', year: str = '2012',
                 use_difficult: bool = False, return_difficult: bool = False) -> None:
        super().__init__()
        voc_utils.check_split('VOCBboxDataset', split, year,
                              ('train', 'val', 'trainval', 'test'))
        if data_dir == 'auto':
            data_dir = voc_utils.get_voc(year, split, 'VOCBboxDataset')
        self.ids = read_id_list('VOCBboxDataset',
                                os.path.join(data_dir, 'ImageSets', 'Main', f'{split}.txt'),
                                'the VOCdevkit/VOC<year> directory')
        self.data_dir = data_dir
        self.use_difficult = use_difficult

        self.add_getter('img', self._get_image)
        self.add_getter(('bbox', 'label', 'difficult'), self._get_annotations)
        if not return_difficult:
            self.keys = ('img', 'bbox', 'label')

    def __len__(self) -> int:
        return len(self.ids)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(os.path.join(self.data_dir, 'JPEGImages', self.ids[i] + '.jpg'),
                          color=True)

    def _get_annotations(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        path = os.path.join(self.data_dir, 'Annotations', self.ids[i] + '.xml')
        bbox, label, difficult = voc_utils.parse_voc_bbox_annotation(
            path, voc_utils.voc_bbox_label_names, 'VOCBboxDataset')
        if not self.use_difficult:
            bbox, label, difficult = bbox[~difficult], label[~difficult], difficult[~difficult]
        return bbox, label, difficult

"""VOCInstanceSegmentationDataset: PASCAL VOC 2012 instance segmentation."""

from __future__ import annotations

import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets._annotation import read_id_list
from vision.datasets.voc import voc_utils
from vision.datasets.voc.voc_semantic_segmentation_dataset import read_voc_label
from vision.utils import read_image


class VOCInstanceSegmentationDataset(GetterDataset):
    """Instance segmentation dataset for PASCAL `VOC2012`_.

    .. _`VOC2012`: http://host.robots.ox.ac.uk/pascal/VOC/voc2012/

    The masks come from ``SegmentationObject`` (one id per instance) and the labels from
    ``SegmentationClass``; the label of :math:`l` is the :math:`l`-th name of
    :data:`voc_instance_segmentation_label_names`.

    Args:
        data_dir (str): The ``VOCdevkit/VOC2012`` directory. If ``'auto'``, the data is
            downloaded (once, checked against its sha256) under ``$VISION_HOME/datasets/voc``.
        split ({'train', 'val', 'trainval'}): The split.

    This dataset returns the following data.

    ========= ========= ======= ====================
    name      shape     dtype   format
    ========= ========= ======= ====================
    ``img``   (3, H, W) float32 RGB, [0, 255]
    ``mask``  (R, H, W) bool    --
    ``label`` (R,)      int32   [0, #fg_class - 1]
    ========= ========= ======= ====================

    Raises:
        ValueError: ``split`` is not one of the above.
        AnnotationError: When an example is read, if its maps do not have the size of its
            image, or an instance has no object class.

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train') -> None:
        super().__init__()
        voc_utils.check_split('VOCInstanceSegmentationDataset', split, '2012')
        if data_dir == 'auto':
            data_dir = voc_utils.get_voc('2012', split, 'VOCInstanceSegmentationDataset')
        self.ids = read_id_list('VOCInstanceSegmentationDataset',
                                os.path.join(data_dir, 'ImageSets', 'Segmentation',
                                             f'{split}.txt'),
                                'the VOCdevkit/VOC2012 directory')
        self.data_dir = data_dir

        self.add_getter('img', self._get_image)
        self.add_getter(('mask', 'label'), self._get_annotations)

    def __len__(self) -> int:
        return len(self.ids)

    def _image_path(self, i: int) -> str:
        return os.path.join(self.data_dir, 'JPEGImages', self.ids[i] + '.jpg')

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self._image_path(i), color=True)

    def _get_annotations(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        fname = 'VOCInstanceSegmentationDataset'
        class_path = os.path.join(self.data_dir, 'SegmentationClass', self.ids[i] + '.png')
        object_path = os.path.join(self.data_dir, 'SegmentationObject', self.ids[i] + '.png')
        label_img = read_voc_label(fname, class_path, self._image_path(i))
        inst_img = read_voc_label(fname, object_path, self._image_path(i))
        inst_img[inst_img == 0] = -1
        return voc_utils.image_wise_to_instance_wise(label_img, inst_img, fname, object_path)

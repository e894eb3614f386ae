"""VOCSemanticSegmentationDataset: PASCAL VOC 2012 semantic segmentation."""

from __future__ import annotations

import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets._annotation import check_size, image_size, read_id_list
from vision.datasets.voc import voc_utils
from vision.utils import read_image, read_label


def read_voc_label(fname: str, path: str, image_path: str) -> numpy.ndarray:
    """Reads a VOC label PNG (palette indices, 255 on object borders) as int32 with -1 for
    255, checking that it has the size of its image."""
    label = read_label(path, dtype=numpy.int32)
    check_size(fname, path, 'the label map', label.shape, image_size(image_path), image_path)
    label[label == 255] = -1
    return label


class VOCSemanticSegmentationDataset(GetterDataset):
    """Semantic segmentation dataset for PASCAL `VOC2012`_.

    .. _`VOC2012`: http://host.robots.ox.ac.uk/pascal/VOC/voc2012/

    Args:
        data_dir (str): The ``VOCdevkit/VOC2012`` directory. If ``'auto'``, the data is
            downloaded (once, checked against its sha256) under ``$VISION_HOME/datasets/voc``.
        split ({'train', 'val', 'trainval'}): The split.

    This dataset returns the following data.

    ========= ========= ======= ====================
    name      shape     dtype   format
    ========= ========= ======= ====================
    ``img``   (3, H, W) float32 RGB, [0, 255]
    ``label`` (H, W)    int32   [-1, #class - 1]
    ========= ========= ======= ====================

    Class 0 is the background (:data:`voc_semantic_segmentation_label_names`); the object
    borders, 255 in the files, are -1.

    Raises:
        ValueError: ``split`` is not one of the above.
        AnnotationError: When an example is read, if its label map does not have the size of
            its image.

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train') -> None:
        super().__init__()
        voc_utils.check_split('VOCSemanticSegmentationDataset', split, '2012')
        if data_dir == 'auto':
            data_dir = voc_utils.get_voc('2012', split, 'VOCSemanticSegmentationDataset')
        self.ids = read_id_list('VOCSemanticSegmentationDataset',
                                os.path.join(data_dir, 'ImageSets', 'Segmentation',
                                             f'{split}.txt'),
                                'the VOCdevkit/VOC2012 directory')
        self.data_dir = data_dir

        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)

    def __len__(self) -> int:
        return len(self.ids)

    def _image_path(self, i: int) -> str:
        return os.path.join(self.data_dir, 'JPEGImages', self.ids[i] + '.jpg')

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self._image_path(i), color=True)

    def _get_label(self, i: int) -> numpy.ndarray:
        return read_voc_label('VOCSemanticSegmentationDataset',
                              os.path.join(self.data_dir, 'SegmentationClass',
                                           self.ids[i] + '.png'),
                              self._image_path(i))

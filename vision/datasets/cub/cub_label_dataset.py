"""CUB-200-2011 with the class label of each bird."""

from __future__ import annotations

import os

import numpy

from vision.datasets._annotation import AnnotationError
from vision.datasets._table import read_table
from vision.datasets.cub.cub_utils import CUBDatasetBase, cub_label_names


class CUBLabelDataset(CUBDatasetBase):
    """`Caltech-UCSD Birds-200-2011`_ with the class label of each image.

    .. _`Caltech-UCSD Birds-200-2011`:
        https://www.vision.caltech.edu/datasets/cub_200_2011/

    Args:
        data_dir (str): The ``CUB_200_2011`` directory (``CUB_200_2011.tgz`` extracted). If
            ``'auto'``, the archive is downloaded under ``$VISION_HOME/datasets/cub``.
        return_bbox (bool): If :obj:`True`, examples end with the bird's bounding box.
        prob_map_dir (str): The ``segmentations`` directory (``segmentations.tgz``
            extracted). If ``'auto'``, it is downloaded, when ``return_prob_map`` is
            :obj:`True`, under ``$VISION_HOME/datasets/cub``.
        return_prob_map (bool): If :obj:`True`, examples end with the probability map of
            the bird.

    This dataset returns the following data.

    ============ =========== ======= ===================================
    name         shape       dtype   format
    ============ =========== ======= ===================================
    ``img``      (3, H, W)   float32 RGB, [0, 255]
    ``label``    ()          int32   [0, #class - 1]
    ``bbox``     (1, 4)      float32 (y_min, x_min, y_max, x_max)
    ``prob_map`` (H, W)      float32 [0, 1]
    ============ =========== ======= ===================================

    ``bbox`` is there if ``return_bbox``, ``prob_map`` if ``return_prob_map``.

    """

    def __init__(self, data_dir: str = 'auto', return_bbox: bool = False,
                 prob_map_dir: str = 'auto', return_prob_map: bool = False) -> None:
        super().__init__(data_dir, prob_map_dir, return_prob_map)
        path = os.path.join(self.data_dir, 'image_class_labels.txt')
        ids, labels = read_table('CUBLabelDataset', path, [('image_id', int), ('class_id', int)])
        labels = numpy.asarray(labels, dtype=numpy.int32)[self._rows(path, ids)] - 1
        if len(labels) and not (0 <= labels.min() and labels.max() < len(cub_label_names)):
            raise AnnotationError('CUBLabelDataset', path, 'field class_id', f'must be in '
                                  f'[1, {len(cub_label_names)}], but has values in '
                                  f'[{labels.min() + 1}, {labels.max() + 1}]')
        self._labels = labels

        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)
        self._set_keys(('img', 'label'), return_bbox, return_prob_map)

    def _get_label(self, i: int) -> numpy.int32:
        return self._labels[i]

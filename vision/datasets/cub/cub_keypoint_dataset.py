"""CUB-200-2011 with the 15 keypoints of each bird."""

from __future__ import annotations

import os

import numpy

from vision.datasets._annotation import AnnotationError, image_size
from vision.datasets._table import read_table
from vision.datasets.cub.cub_utils import CUBDatasetBase

_N_POINT = 15


class CUBKeypointDataset(CUBDatasetBase):
    """`Caltech-UCSD Birds-200-2011`_ with the 15 keypoints of each bird.

    .. _`Caltech-UCSD Birds-200-2011`:
        https://www.vision.caltech.edu/datasets/cub_200_2011/

    A keypoint is visible when ``parts/part_locs.txt`` says so and it lies in the image; the
    coordinates of the others are meaningless. The points are read without decoding the image
    (its size comes from the file's header), so ``dataset.slice[:, ('point', 'visible')]`` is
    fast.

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
    ``point``    (1, 15, 2)  float32 (y, x)
    ``visible``  (1, 15)     bool    --
    ``bbox``     (1, 4)      float32 (y_min, x_min, y_max, x_max)
    ``prob_map`` (H, W)      float32 [0, 1]
    ============ =========== ======= ===================================

    ``bbox`` is there if ``return_bbox``, ``prob_map`` if ``return_prob_map``.

    """

    def __init__(self, data_dir: str = 'auto', return_bbox: bool = False,
                 prob_map_dir: str = 'auto', return_prob_map: bool = False) -> None:
        super().__init__(data_dir, prob_map_dir, return_prob_map)
        fname = 'CUBKeypointDataset'
        path = os.path.join(self.data_dir, 'parts', 'part_locs.txt')
        ids, part_ids, x, y, visible = read_table(fname, path, [
            ('image_id', int), ('part_id', int), ('x', float), ('y', float),
            ('visible', int)])
        rows = self._rows(path, ids, _N_POINT)
        # Each image's rows in the order of their part ids.
        part_ids = numpy.asarray(part_ids)
        rows = numpy.take_along_axis(rows, numpy.argsort(part_ids[rows], axis=1), axis=1)
        if not (part_ids[rows] == numpy.arange(1, _N_POINT + 1)).all():
            raise AnnotationError(fname, path, 'field part_id', f'must take each value from 1 '
                                  f'to {_N_POINT} once per image')
        visible = numpy.asarray(visible)
        if not numpy.isin(visible, (0, 1)).all():
            raise AnnotationError(fname, path, 'field visible', f'must be 0 or 1, but has '
                                  f'{sorted(set(visible.tolist()) - {0, 1})[:5]}')
        self._points = numpy.stack((numpy.asarray(y, dtype=numpy.float32)[rows],
                                    numpy.asarray(x, dtype=numpy.float32)[rows]), axis=2)
        self._visible = visible[rows].astype(bool)

        self.add_getter('img', self._get_image)
        self.add_getter(('point', 'visible'), self._get_annotations)
        self._set_keys(('img', 'point', 'visible'), return_bbox, return_prob_map)

    def _get_annotations(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        point = self._points[i]
        height, width = image_size(self._image_path(i))
        inside = ((point >= 0).all(axis=1) & (point[:, 0] <= height)
                  & (point[:, 1] <= width))
        return point[None].copy(), (self._visible[i] & inside)[None]

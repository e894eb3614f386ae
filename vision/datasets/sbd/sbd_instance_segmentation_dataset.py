"""SBDInstanceSegmentationDataset: instance masks of the Semantic Boundaries Dataset."""

from __future__ import annotations

import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets._annotation import AnnotationError, check_size, image_size, read_id_list
from vision.datasets._matlab import loadmat
from vision.datasets.sbd import sbd_utils
from vision.datasets.voc.voc_utils import image_wise_to_instance_wise
from vision.utils import read_image


def _read_segmentation(fname: str, path: str, variable: str) -> numpy.ndarray:
    """Reads ``variable.Segmentation`` of an SBD MAT-file as an int32 map."""
    content = loadmat(path)
    struct = content.get(variable)
    if not isinstance(struct, dict):
        raise AnnotationError(fname, path, variable,
                              f'is missing (the file holds {sorted(content)})')
    segmentation = struct.get('Segmentation')
    if not isinstance(segmentation, numpy.ndarray) or segmentation.ndim != 2 or \
            segmentation.dtype.kind not in 'iuf':
        raise AnnotationError(fname, path, f'{variable}.Segmentation',
                              'must be a two-dimensional numeric array')
    return segmentation.astype(numpy.int32)


class SBDInstanceSegmentationDataset(GetterDataset):
    """Instance segmentation dataset for the Semantic Boundaries Dataset `SBD`_.

    .. _`SBD`: http://home.bharathh.info/pubs/codes/SBD/download.html

    The label of :math:`l` is the :math:`l`-th name of
    :data:`sbd_instance_segmentation_label_names`. The splits are those of ChainerCV: ``train``
    holds SBD's images that are not in the VOC 2012 validation set, ``val`` the others.
    The annotations are MATLAB files, read without SciPy.

    Args:
        data_dir (str): The ``benchmark_RELEASE/dataset`` directory, holding
            ``{split}_voc2012.txt``. If ``'auto'``, the data is downloaded (once, checked
            against its sha256) under ``$VISION_HOME/datasets/sbd``.
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
        AnnotationError: When an example is read, if a MAT-file lacks its ``Segmentation``
            or it does not have the size of the image.

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train') -> None:
        super().__init__()
        if split not in ('train', 'val', 'trainval'):
            raise ValueError(f"SBDInstanceSegmentationDataset: split must be 'train', 'val' "
                             f"or 'trainval', but got {split!r}")
        if data_dir == 'auto':
            data_dir = sbd_utils.get_sbd('SBDInstanceSegmentationDataset')
        self.ids = read_id_list('SBDInstanceSegmentationDataset',
                                os.path.join(data_dir, f'{split}_voc2012.txt'),
                                'the benchmark_RELEASE/dataset directory of SBD')
        self.data_dir = data_dir

        self.add_getter('img', self._get_image)
        self.add_getter(('mask', 'label'), self._get_annotations)

    def __len__(self) -> int:
        return len(self.ids)

    def _image_path(self, i: int) -> str:
        return os.path.join(self.data_dir, 'img', self.ids[i] + '.jpg')

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self._image_path(i), color=True)

    def _get_annotations(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        fname = 'SBDInstanceSegmentationDataset'
        size = image_size(self._image_path(i))
        class_path = os.path.join(self.data_dir, 'cls', self.ids[i] + '.mat')
        label_img = _read_segmentation(fname, class_path, 'GTcls')
        check_size(fname, class_path, 'GTcls.Segmentation', label_img.shape, size,
                   self._image_path(i))
        inst_path = os.path.join(self.data_dir, 'inst', self.ids[i] + '.mat')
        inst_img = _read_segmentation(fname, inst_path, 'GTinst')
        check_size(fname, inst_path, 'GTinst.Segmentation', inst_img.shape, size,
                   self._image_path(i))
        label_img[label_img == 255] = -1
        inst_img[(inst_img == 0) | (inst_img == 255)] = -1
        return image_wise_to_instance_wise(label_img, inst_img, fname, inst_path)

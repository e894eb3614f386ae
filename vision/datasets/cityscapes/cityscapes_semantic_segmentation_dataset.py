"""Cityscapes' semantic segmentation splits, fine or coarse."""

from __future__ import annotations

import glob
import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets.cityscapes.cityscapes_utils import check_cityscapes_dir, cityscapes_labels
from vision.utils import read_image, read_label
from vision.utils.download import get_dataset_directory

_SPLITS = {'fine': ('train', 'val', 'test'), 'coarse': ('train', 'train_extra', 'val')}


def _train_id_table() -> numpy.ndarray:
    """Maps a label id (0 to 255) to its train id, and the ids ignored in evaluation to -1."""
    table = numpy.full(256, -1, dtype=numpy.int32)
    for label in cityscapes_labels:
        if not label.ignoreInEval:
            table[label.id] = label.trainId
    return table


_TRAIN_IDS = _train_id_table()


class CityscapesSemanticSegmentationDataset(GetterDataset):
    """Semantic segmentation dataset for `Cityscapes`_.

    .. _`Cityscapes`: https://www.cityscapes-dataset.com

    .. note::

        Cityscapes may not be redistributed: download it by hand. Log in at
        https://www.cityscapes-dataset.com/downloads/, download ``leftImg8bit_trainvaltest.zip``
        and ``gtFine_trainvaltest.zip`` (or ``gtCoarse.zip``), and extract them into
        ``data_dir``, which then holds ``leftImg8bit/<split>/<city>/*_leftImg8bit.png`` and
        ``gtFine/<split>/<city>/*_gtFine_labelIds.png``.

    Args:
        data_dir (str): The root of Cityscapes. If ``'auto'``, it is
            ``$VISION_HOME/datasets/cityscapes``.
        label_resolution ({'fine', 'coarse'}): Which annotations to read.
        split ({'train', 'val', 'test'} or {'train', 'train_extra', 'val'}): The split; the
            second set for coarse annotations.
        ignore_labels (bool): If :obj:`True` (default), the labels are the 19 train ids of
            the benchmark and the classes marked ``ignoreInEval`` in `cityscapesScripts`_ are
            -1. If :obj:`False`, the labels are the 34 ids of the files as they are.

    .. _`cityscapesScripts`: https://github.com/mcordts/cityscapesScripts

    This dataset returns the following data.

    ========= =========== ======= ==========================
    name      shape       dtype   format
    ========= =========== ======= ==========================
    ``img``   (3, H, W)   float32 RGB, [0, 255]
    ``label`` (H, W)      int32   [-1, #class - 1]
    ========= =========== ======= ==========================

    Attributes:
        img_paths (list of str): The images, sorted by city and name.
        label_paths (list of str): The ``*_labelIds.png`` of each image.

    """

    def __init__(self, data_dir: str = 'auto', label_resolution: str | None = None,
                 split: str = 'train', ignore_labels: bool = True) -> None:
        super().__init__()
        fname = 'CityscapesSemanticSegmentationDataset'
        if label_resolution not in _SPLITS:
            raise ValueError(f"{fname}: label_resolution must be 'fine' or 'coarse', but got "
                             f'{label_resolution!r}')
        if split not in _SPLITS[label_resolution]:
            raise ValueError(f'{fname}: split must be one of {_SPLITS[label_resolution]} for '
                             f'{label_resolution} labels, but got {split!r}')
        if data_dir == 'auto':
            data_dir = get_dataset_directory('cityscapes', create_directory=False)
        resolution = 'gtFine' if label_resolution == 'fine' else 'gtCoarse'
        img_dir = check_cityscapes_dir(fname, data_dir, 'leftImg8bit', split)
        label_dir = check_cityscapes_dir(fname, data_dir, resolution, split)
        self.ignore_labels = ignore_labels

        suffix = f'_{resolution}_labelIds.png'
        pattern = os.path.join(glob.escape(label_dir), '*', '*' + suffix)
        self.label_paths = sorted(glob.glob(pattern))
        self.img_paths = []
        for label_path in self.label_paths:
            city = os.path.basename(os.path.dirname(label_path))
            name = os.path.basename(label_path)[:-len(suffix)] + '_leftImg8bit.png'
            img_path = os.path.join(img_dir, city, name)
            if not os.path.isfile(img_path):
                raise FileNotFoundError(f'{fname}: the annotation {label_path} has no image '
                                        f'{img_path}')
            self.img_paths.append(img_path)

        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)

    def __len__(self) -> int:
        return len(self.img_paths)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self.img_paths[i])

    def _get_label(self, i: int) -> numpy.ndarray:
        label = read_label(self.label_paths[i], dtype=numpy.int32)
        if self.ignore_labels:
            label = _TRAIN_IDS[numpy.clip(label, 0, len(_TRAIN_IDS) - 1)]
        return label

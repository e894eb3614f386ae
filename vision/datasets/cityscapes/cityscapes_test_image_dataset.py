"""Cityscapes' test images, whose annotations are withheld."""

from __future__ import annotations

import glob
import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets.cityscapes.cityscapes_utils import check_cityscapes_dir
from vision.utils import read_image
from vision.utils.download import get_dataset_directory


class CityscapesTestImageDataset(GetterDataset):
    """Image dataset for the test split of `Cityscapes`_.

    .. _`Cityscapes`: https://www.cityscapes-dataset.com

    .. note::

        Cityscapes may not be redistributed: download it by hand. Log in at
        https://www.cityscapes-dataset.com/downloads/, download ``leftImg8bit_trainvaltest.zip``
        and extract it into ``data_dir``, which then holds
        ``leftImg8bit/test/<city>/*_leftImg8bit.png``.

    Args:
        data_dir (str): The root of Cityscapes. If ``'auto'``, it is
            ``$VISION_HOME/datasets/cityscapes``.

    This dataset returns the following data: an example is the image alone, not a tuple.

    ========= =========== ======= ==========================
    name      shape       dtype   format
    ========= =========== ======= ==========================
    ``img``   (3, H, W)   float32 RGB, [0, 255]
    ========= =========== ======= ==========================

    Attributes:
        img_paths (list of str): The images, sorted by city and name.

    """

    def __init__(self, data_dir: str = 'auto') -> None:
        super().__init__()
        if data_dir == 'auto':
            data_dir = get_dataset_directory('cityscapes', create_directory=False)
        img_dir = check_cityscapes_dir('CityscapesTestImageDataset', data_dir, 'leftImg8bit',
                                       'test')
        self.img_paths = sorted(glob.glob(
            os.path.join(glob.escape(img_dir), '*', '*_leftImg8bit.png')))
        self.add_getter('img', self._get_image)
        self.keys = 'img'

    def __len__(self) -> int:
        return len(self.img_paths)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self.img_paths[i])

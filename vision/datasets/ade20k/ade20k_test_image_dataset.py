"""ADE20K's test images (release_test), which come without annotations."""

from __future__ import annotations

import glob
import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets.ade20k.ade20k_utils import _TEST_URL, get_ade20k
from vision.utils import read_image


class ADE20KTestImageDataset(GetterDataset):
    """Image dataset for the test split of `ADE20K`_: 3,352 images without annotations.

    .. _`ADE20K`: http://sceneparsing.csail.mit.edu/

    Args:
        data_dir (str): The directory that contains ``release_test`` (the archive
            ``release_test.zip`` extracted). If ``'auto'``, the archive is downloaded under
            ``$VISION_HOME/datasets/ade20k``.

    This dataset returns the following data: an example is the image alone, not a tuple.

    ========= =========== ======= ==========================
    name      shape       dtype   format
    ========= =========== ======= ==========================
    ``img``   (3, H, W)   float32 RGB, [0, 255]
    ========= =========== ======= ==========================

    Attributes:
        img_paths (list of str): The images, sorted by name.

    """

    def __init__(self, data_dir: str = 'auto') -> None:
        super().__init__()
        if data_dir == 'auto':
            data_dir = get_ade20k('ADE20KTestImageDataset', _TEST_URL, 'release_test')
        img_dir = os.path.join(data_dir, 'release_test', 'testing')
        if not os.path.isdir(img_dir):
            raise FileNotFoundError(f'ADE20KTestImageDataset: {img_dir} does not exist; '
                                    f'data_dir must hold release_test.zip extracted, or be '
                                    f'"auto"')
        self.img_paths = sorted(glob.glob(os.path.join(glob.escape(img_dir), '*.jpg')))
        self.add_getter('img', self._get_image)
        self.keys = 'img'

    def __len__(self) -> int:
        return len(self.img_paths)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self.img_paths[i])

"""Label datasets read from a tree of class directories (ImageNet's ``train/<wnid>/`` layout)."""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy

from framework.datasets import GetterDataset
from vision.utils import read_image

_IMAGE_EXTENSIONS = ('.jpg', '.jpeg', '.png', '.ppm', '.bmp')


def directory_parsing_label_names(root: str, numerical_sort: bool = False) -> list[str]:
    """Returns the label names: the names of the directories directly under ``root``.

    The position of a name in the list is the label that
    :class:`DirectoryParsingLabelDataset` gives to the images under that directory.

    Args:
        root (str): The root directory.
        numerical_sort (bool): If :obj:`True`, the names are sorted as integers, so that
            ``'2'`` comes before ``'10'``; every name must then be an integer. If :obj:`False`
            (default), they are sorted as strings.

    Returns:
        list of str: The sorted names of the subdirectories.

    """
    if not os.path.isdir(root):
        raise FileNotFoundError(f'directory_parsing_label_names: root {root} is not a directory')
    names = [d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))]
    if not numerical_sort:
        return sorted(names)
    try:
        return sorted(names, key=int)
    except ValueError:
        raise ValueError(f'directory_parsing_label_names: with numerical_sort=True every '
                         f'directory name must be an integer, but {root} holds '
                         f'{sorted(names)[:10]}') from None


def _has_image_extension(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in _IMAGE_EXTENSIONS


def _parse_label_dataset(root: str, label_names: list[str],
                         check_img_file: Callable[[str], bool]) -> tuple[list[str], numpy.ndarray]:
    img_paths = []
    labels = []
    for label, name in enumerate(label_names):
        walk = sorted(os.walk(os.path.join(root, name)), key=lambda entry: entry[0])
        for directory, _, files in walk:
            for file in sorted(files):
                path = os.path.join(directory, file)
                if check_img_file(path):
                    img_paths.append(path)
                    labels.append(label)
    return img_paths, numpy.array(labels, dtype=numpy.int32)


class DirectoryParsingLabelDataset(GetterDataset):
    """A label dataset whose label names are the names of the subdirectories of ``root``.

    Every image under ``root/<label name>/``, at any depth, gets the label of that name's
    position in :func:`directory_parsing_label_names`. Files are sorted by their directory,
    then by name::

        root
        |-- class_0
        |   |-- img_0.png
        |   `-- img_1.png
        `-- class_1
            `-- img_0.png

        >>> dataset = DirectoryParsingLabelDataset('root')
        >>> dataset.img_paths
        ['root/class_0/img_0.png', 'root/class_0/img_1.png', 'root/class_1/img_0.png']
        >>> dataset.labels
        array([0, 0, 1], dtype=int32)

    Args:
        root (str): The root directory.
        check_img_file (callable): ``check_img_file(path)`` tells whether a file is part of
            the dataset. If :obj:`None` (default), the files with the extension ``.jpg``,
            ``.jpeg``, ``.png``, ``.ppm`` or ``.bmp`` (any case) are.
        color (bool): If :obj:`True` (default), images are read in colour, else in grayscale.
        numerical_sort (bool): Sort the label names as integers (see
            :func:`directory_parsing_label_names`). Files with the same label are always
            sorted as strings.

    This dataset returns the following data.

    ========= =========== ======= ==========================
    name      shape       dtype   format
    ========= =========== ======= ==========================
    ``img``   (3, H, W)   float32 RGB, [0, 255]
    ``label`` ()          int32   [0, #class - 1]
    ========= =========== ======= ==========================

    The image is :math:`(1, H, W)` if ``color`` is :obj:`False`.

    Attributes:
        img_paths (list of str): The image paths.
        labels (~numpy.ndarray): The label of each image, int32.

    """

    def __init__(self, root: str, check_img_file: Callable[[str], bool] | None = None,
                 color: bool = True, numerical_sort: bool = False) -> None:
        super().__init__()
        self.color = color
        label_names = directory_parsing_label_names(root, numerical_sort=numerical_sort)
        if check_img_file is None:
            check_img_file = _has_image_extension
        self.img_paths, self.labels = _parse_label_dataset(root, label_names, check_img_file)
        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)

    def __len__(self) -> int:
        return len(self.img_paths)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self.img_paths[i], color=self.color)

    def _get_label(self, i: int) -> numpy.int32:
        return self.labels[i]

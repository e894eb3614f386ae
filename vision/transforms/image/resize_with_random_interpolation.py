"""Resizing with a randomly chosen interpolation."""

from __future__ import annotations

import numpy
from PIL import Image

from vision.transforms import _random
from vision.transforms._checks import check_rng
from vision.transforms.image.resize import resize

# OpenCV's five (linear, area, nearest, cubic, Lanczos) as this project's Pillow filters.
_INTERPOLATIONS = (Image.BILINEAR, Image.BOX, Image.NEAREST, Image.BICUBIC, Image.LANCZOS)


def resize_with_random_interpolation(
        img: numpy.ndarray, size: tuple[int, int], return_param: bool = False, *,
        rng: numpy.random.Generator | None = None
) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Resizes an image with an interpolation chosen uniformly (ChainerCV's
    ``resize_with_random_interpolation``, an augmentation of its SSD recipe).

    The choices are the five of ChainerCV's OpenCV backend, as Pillow's filters:
    :obj:`PIL.Image.BILINEAR`, :obj:`PIL.Image.BOX` (OpenCV's area), :obj:`PIL.Image.NEAREST`,
    :obj:`PIL.Image.BICUBIC` and :obj:`PIL.Image.LANCZOS` (see :func:`resize`).

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        size (tuple of two ints): The size of the output, :math:`(H_{out}, W_{out})`.
        return_param (bool): If :obj:`True`, the interpolation is returned too.
        rng (numpy.random.Generator): The source of the choice. If :obj:`None` (default),
            Python's global :mod:`random` state is used.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The resized image, :math:`(C, H_{out}, W_{out})`; with ``return_param``, also a dict
        with **interpolation** (*int*), the Pillow filter used.
    """
    check_rng('resize_with_random_interpolation', rng)
    interpolation = _INTERPOLATIONS[_random.randint(rng, 0, len(_INTERPOLATIONS) - 1)]
    img = resize(img, size, interpolation)
    return (img, {'interpolation': interpolation}) if return_param else img

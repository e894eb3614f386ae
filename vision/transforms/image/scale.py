"""Resizing an image so that one side has a given length."""

from __future__ import annotations

import numbers

import numpy
from PIL import Image

from vision.transforms._checks import check_image
from vision.transforms.image.resize import resize


def scale(img: numpy.ndarray, size: int, fit_short: bool = True,
          interpolation: int | str = Image.BILINEAR) -> numpy.ndarray:
    """Resizes an image, keeping its aspect ratio, so that one side has length ``size``.

    With ``fit_short``, the shorter side becomes ``size`` (an image taller than wide becomes
    ``(int(size * H / W), size)``); otherwise the longer side does. If that side already has
    length ``size``, ``img`` itself is returned.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        size (int): The length of the shorter (or longer) side after resizing.
        fit_short (bool): If :obj:`True` (default), fit the shorter side; else the longer.
        interpolation (int or str): The filter; see :func:`~vision.transforms.resize`.

    Returns:
        ~numpy.ndarray: The resized image, of the dtype of ``img``.
    """
    _, H, W = check_image('scale', img)
    if not isinstance(size, numbers.Integral) or isinstance(size, bool) or size < 1:
        raise ValueError(f'scale: size must be a positive int, but got {size!r}')
    if fit_short:
        if (H <= W and H == size) or (W <= H and W == size):
            return img
        out_size = (size, int(size * W / H)) if H < W else (int(size * H / W), size)
    else:
        if (H >= W and H == size) or (W >= H and W == size):
            return img
        out_size = (int(size * H / W), size) if H < W else (size, int(size * W / H))
    return resize(img, out_size, interpolation)

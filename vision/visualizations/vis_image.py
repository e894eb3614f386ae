"""Showing an image on matplotlib axes."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from vision.visualizations._matplotlib import pyplot

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def image_to_pixels(fname: str, img) -> numpy.ndarray:
    """Checks a ``(C, H, W)`` image (C 1 or 3) and returns it as ``(H, W, C)`` uint8."""
    img = numpy.asarray(img)
    if img.ndim != 3 or img.shape[0] not in (1, 3):
        raise ValueError(f'{fname}: img must have shape (3, H, W) or (1, H, W), but got shape '
                         f'{img.shape}')
    if img.dtype.kind == 'f':
        img = numpy.rint(img)
    return numpy.clip(img, 0, 255).astype(numpy.uint8).transpose(1, 2, 0)


def vis_image(img: numpy.ndarray | None, ax: Axes | None = None) -> Axes:
    """Shows an image.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(3, H, W)` (RGB) or :math:`(1, H, W)`
            (grayscale) with values in :math:`[0, 255]`. If :obj:`None`, no image is shown.
        ax (matplotlib.axes.Axes): The axes to draw on. If :obj:`None` (default), a new
            figure with one axes is created with :mod:`matplotlib.pyplot`.

    Returns:
        matplotlib.axes.Axes: The axes, for further drawing.
    """
    pixels = None if img is None else image_to_pixels('vis_image', img)
    if ax is None:
        ax = pyplot().figure().add_subplot(1, 1, 1)
    if pixels is not None and pixels.shape[2] == 1:
        ax.imshow(pixels[:, :, 0], cmap='gray', vmin=0, vmax=255)
    elif pixels is not None:
        ax.imshow(pixels)
    return ax

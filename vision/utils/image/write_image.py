"""Writing a ``(C, H, W)`` array to an image file."""

from __future__ import annotations

import numpy
from PIL import Image

from vision.utils.image._open import PathOrFile


def write_image(img: numpy.ndarray, file: PathOrFile, format: str | None = None) -> None:
    """Saves an image to a file.

    Values are clipped to :math:`[0, 255]` and floats are rounded to the nearest integer before
    the image is stored as 8 bits per channel (a boolean image is stored as 0 and 1).

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)` with :math:`C` 1
            (grayscale), 3 (RGB) or 4 (RGBA), and values in :math:`[0, 255]`.
        file (str, os.PathLike or file object): A path, or a binary file object to write to.
        format (str): The format, e.g. ``'png'``, ``'jpeg'`` or ``'bmp'``. If :obj:`None`, it
            is taken from the file name's extension; a file object without one needs it.

    Raises:
        ValueError: ``img`` does not have one of the accepted shapes.
    """
    img = numpy.asarray(img)
    if img.ndim != 3 or img.shape[0] not in (1, 3, 4):
        raise ValueError('write_image: img must have shape (C, H, W) with C 1, 3 or 4, '
                         f'but got shape {img.shape}')
    if img.dtype.kind in 'fiu':
        img = numpy.clip(img, 0, 255)
    if img.dtype.kind == 'f':
        img = numpy.rint(img)
    img = img.astype(numpy.uint8)
    pixels = img[0] if img.shape[0] == 1 else numpy.ascontiguousarray(img.transpose(1, 2, 0))
    Image.fromarray(pixels).save(file, format=format)

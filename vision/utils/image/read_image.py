"""Reading an image file into a ``(C, H, W)`` array."""

from __future__ import annotations

import numpy
from numpy.typing import DTypeLike
from PIL import Image

from vision._backend_switch import check_backend
from vision.utils.image._open import PathOrFile, open_oriented

_ALPHA_OPTIONS = (None, 'ignore', 'blend_with_white', 'blend_with_black')
_ALPHA_MODES = frozenset(('RGBA', 'RGBa', 'LA', 'La', 'PA'))


def _has_alpha(img: Image.Image) -> bool:
    # A palette or grayscale image can mark one value transparent instead of carrying a band.
    return img.mode in _ALPHA_MODES or 'transparency' in img.info


def _remove_alpha(array: numpy.ndarray, alpha: str) -> numpy.ndarray:
    """Turns ``(H, W, C + 1)`` uint8 (colour bands, then alpha) into ``(H, W, C)``."""
    color = array[..., :-1]
    if alpha == 'ignore':
        return color
    weight = array[..., -1:].astype(numpy.float32) / 255
    blended = color * weight
    if alpha == 'blend_with_white':
        blended += 255 * (1 - weight)
    return blended


def _cast(array: numpy.ndarray, dtype: DTypeLike) -> numpy.ndarray:
    """Returns a new C-contiguous array of ``dtype``, rounding floats cast to integers."""
    dtype = numpy.dtype(dtype)
    if array.dtype.kind == 'f' and dtype.kind in 'iu':
        array = numpy.rint(array)
    return array.astype(dtype, order='C')


def read_image(file: PathOrFile, dtype: DTypeLike = numpy.float32, color: bool = True,
               alpha: str | None = None) -> numpy.ndarray:
    """Reads an image from a file.

    The image is rotated or mirrored as its EXIF orientation tag says (as OpenCV's ``imread``
    does), so that it comes out the way viewers display it. Any format Pillow reads is accepted;
    palette, grayscale, CMYK and 16-bit images are converted.

    ChainerCV's switch ``chainer.config.cv_read_image_backend`` is honoured when Chainer is
    imported (None or ``'PIL'``; ``'cv2'`` raises :class:`ValueError` if OpenCV is not
    installed, as in ChainerCV; any other value raises it too), but the image is always read
    by Pillow.

    Args:
        file (str, os.PathLike or file object): A path of an image file, or a binary file
            object of one.
        dtype: The dtype of the returned array. The default is :obj:`numpy.float32`. Blended
            values are rounded when the dtype is an integer type.
        color (bool): If :obj:`True` (default), the image has three channels in RGB order.
            If :obj:`False`, it has one channel, the luma ``0.299 R + 0.587 G + 0.114 B``.
        alpha (None or {'ignore', 'blend_with_white', 'blend_with_black'}): How an image with
            transparency (an alpha band, or a palette or grayscale value marked transparent) is
            handled:

            * :obj:`None` (default): a :class:`ValueError` is raised.
            * ``'ignore'``: the alpha channel is dropped.
            * ``'blend_with_white'``: the image is composited onto a white background.
            * ``'blend_with_black'``: the image is composited onto a black background.

            Images without transparency are read the same with any value.

    Returns:
        ~numpy.ndarray: The image, of shape :math:`(3, H, W)` (or :math:`(1, H, W)` if
        ``color`` is :obj:`False`), dtype ``dtype`` and values in :math:`[0, 255]`. The array
        is writable and owns its memory.

    Raises:
        ValueError: ``alpha`` is not one of the options, or it is :obj:`None` and the image has
            transparency, or ``chainer.config.cv_read_image_backend`` is invalid (see above).
    """
    check_backend('read_image', 'cv_read_image_backend')
    if alpha not in _ALPHA_OPTIONS:
        raise ValueError("read_image: alpha must be None, 'ignore', 'blend_with_white' or "
                         f"'blend_with_black', but got {alpha!r}")
    mode = 'RGB' if color else 'L'
    with open_oriented(file) as img:
        if _has_alpha(img):
            if alpha is None:
                raise ValueError(
                    f'read_image: the image has transparency (mode {img.mode}), but alpha is '
                    "None; pass alpha='ignore', 'blend_with_white' or 'blend_with_black'")
            array = _remove_alpha(numpy.asarray(img.convert(mode + 'A')), alpha)
        else:
            array = numpy.asarray(img.convert(mode))
    if array.ndim == 2:
        array = array[:, :, None]
    return _cast(array.transpose(2, 0, 1), dtype)

"""Reading an image file into a ``(C, H, W)`` array."""

from __future__ import annotations

import numpy
from numpy.typing import DTypeLike
from PIL import Image

from vision._backend_switch import check_backend
from vision.utils.image._open import PathOrFile, open_oriented

_ALPHA_OPTIONS = (None, 'ignore', 'blend_with_white', 'blend_with_black')
_ALPHA_MODES = frozenset(('RGBA', 'RGBa', 'LA', 'La', 'PA'))
# Grayscale of more than 8 bits: 16-bit (any byte order) and 32-bit integers, taken as 16-bit.
_WIDE_GRAY_MODES = frozenset(('I', 'I;16', 'I;16L', 'I;16B', 'I;16N'))


def _has_alpha(img: Image.Image) -> bool:
    # A palette or grayscale image can mark one value transparent instead of carrying a band.
    return img.mode in _ALPHA_MODES or 'transparency' in img.info


def _remove_alpha(array: numpy.ndarray, alpha: str) -> numpy.ndarray:
    """Turns ``(H, W, C + 1)`` (colour bands, then alpha, in :math:`[0, 255]`) into
    ``(H, W, C)``."""
    color = array[..., :-1]
    if alpha == 'ignore':
        return color
    weight = array[..., -1:].astype(numpy.float32) / 255
    blended = color * weight
    if alpha == 'blend_with_white':
        blended += 255 * (1 - weight)
    return blended


def _pixels(img: Image.Image, color: bool, with_alpha: bool) -> numpy.ndarray:
    """The pixels ``(H, W, C)`` (``(H, W, C + 1)`` ``with_alpha``) in :math:`[0, 255]`: RGB if
    ``color``, else luma; a wide grayscale image is scaled from :math:`[0, 65535]`."""
    if img.mode not in _WIDE_GRAY_MODES:
        return numpy.asarray(img.convert(('RGB' if color else 'L') + ('A' if with_alpha else '')))
    raw = numpy.asarray(img)
    gray = numpy.clip(raw, 0, 65535).astype(numpy.float32)[..., None] / 257  # 65535 / 255
    bands = [gray] * (3 if color else 1)
    if with_alpha:
        bands.append((raw != img.info['transparency'])[..., None] * numpy.float32(255))
    return numpy.concatenate(bands, axis=-1)


def _cast(array: numpy.ndarray, dtype: DTypeLike) -> numpy.ndarray:
    """Returns a new C-contiguous array of ``dtype``, rounding floats cast to integers."""
    dtype = numpy.dtype(dtype)
    if array.dtype.kind == 'f' and dtype.kind in 'iu':
        array = numpy.rint(array)
    return array.astype(dtype, order='C')


class TransparencyError(ValueError):
    """The image has transparency, and :func:`read_image` was not told how to handle it
    (``alpha`` is None)."""


def read_image(file: PathOrFile, dtype: DTypeLike = numpy.float32, color: bool = True,
               alpha: str | None = None) -> numpy.ndarray:
    """Reads an image from a file.

    The image is rotated or mirrored as its EXIF orientation tag says (as OpenCV's ``imread``
    does), so that it comes out the way viewers display it. Any format Pillow reads is accepted;
    palette, grayscale, CMYK and 16-bit images are converted. A 16-bit grayscale image (and a
    32-bit integer one, taken as 16-bit and clipped to :math:`[0, 65535]`) is scaled from
    :math:`[0, 65535]` to :math:`[0, 255]`, rounded only when ``dtype`` is an integer type
    (ChainerCV's contract is :math:`[0, 255]` whatever the depth). Pillow reads a 16-bit colour
    PNG at 8 bits per channel (the high byte of each sample).

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
        ImageFileError: The file is not an image Pillow reads, is truncated or corrupt, or has
            more pixels than Pillow's decompression-bomb limit (twice
            ``PIL.Image.MAX_IMAGE_PIXELS``; the environment variable
            ``VISION_MAX_IMAGE_PIXELS`` sets it: a number of pixels, or ``none``). An
            :class:`OSError` whose message names the file.
        TransparencyError: ``alpha`` is :obj:`None` and the image has transparency (a
            :class:`ValueError`, as ChainerCV raises).
        ValueError: ``alpha`` is not one of the options, or
            ``chainer.config.cv_read_image_backend`` is invalid (see above).
    """
    check_backend('read_image', 'cv_read_image_backend')
    if alpha not in _ALPHA_OPTIONS:
        raise ValueError("read_image: alpha must be None, 'ignore', 'blend_with_white' or "
                         f"'blend_with_black', but got {alpha!r}")
    with open_oriented(file, 'read_image') as img:
        with_alpha = _has_alpha(img)
        if with_alpha and alpha is None:
            raise TransparencyError(
                f'read_image: the image has transparency (mode {img.mode}), but alpha is '
                "None; pass alpha='ignore', 'blend_with_white' or 'blend_with_black'")
        array = _pixels(img, color, with_alpha)
    if with_alpha:
        array = _remove_alpha(array, alpha)
    if array.ndim == 2:
        array = array[:, :, None]
    return _cast(array.transpose(2, 0, 1), dtype)

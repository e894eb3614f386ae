"""Opening image files the same way for every reader: EXIF orientation applied, and a file
that cannot be read refused with one :class:`ImageFileError` that names it."""

from __future__ import annotations

import contextlib
import os
import struct
import zlib
from collections.abc import Iterator
from typing import BinaryIO

from PIL import Image, ImageOps, UnidentifiedImageError

PathOrFile = str | os.PathLike | BinaryIO

_LIMIT_VARIABLE = 'VISION_MAX_IMAGE_PIXELS'
# What Pillow's decoders raise for a truncated or corrupt file (an OSError without errno among
# them, e.g. 'image file is truncated'); an OSError with errno is the file system's own.
_DECODING_ERRORS = (OSError, SyntaxError, EOFError, ValueError, struct.error, zlib.error)


class ImageFileError(OSError):
    """An image file that cannot be read: not an image, truncated or corrupt, or too large.

    The message names the function, the file and what is wrong, e.g. ``read_image: cannot
    read photo.jpg: truncated or corrupt (image file is truncated (150 bytes not processed))``;
    Pillow's error is its ``__cause__``.
    """


def _name(file: PathOrFile) -> str:
    if isinstance(file, (str, os.PathLike)):
        return os.fspath(file)
    return str(getattr(file, 'name', file))


def _apply_pixel_limit(fname: str) -> None:
    """Sets Pillow's ``MAX_IMAGE_PIXELS`` from ``VISION_MAX_IMAGE_PIXELS`` when it is set."""
    value = os.environ.get(_LIMIT_VARIABLE)
    if value is None:
        return
    if value.lower() == 'none':
        Image.MAX_IMAGE_PIXELS = None
    elif value.isdigit() and int(value) > 0:
        Image.MAX_IMAGE_PIXELS = int(value)
    else:
        raise ValueError(f'{fname}: the environment variable {_LIMIT_VARIABLE} must be a '
                         f"positive number of pixels or 'none', but got {value!r}")


def _explain(error: Exception) -> str | None:
    """What is wrong with the file, by Pillow's error; None for an error of the file system."""
    if isinstance(error, Image.DecompressionBombError):
        return (f'too many pixels, it may be a decompression bomb ({error}); if you trust the '
                f'file, set the environment variable {_LIMIT_VARIABLE} to its number of pixels '
                '(or to none for no limit), or PIL.Image.MAX_IMAGE_PIXELS in Python')
    if isinstance(error, UnidentifiedImageError):
        return f'not an image Pillow can read: an unknown format, empty or corrupt ({error})'
    if isinstance(error, OSError) and error.errno is not None:
        return None
    return f'truncated or corrupt ({error or type(error).__name__})'


@contextlib.contextmanager
def open_oriented(file: PathOrFile, fname: str) -> Iterator[Image.Image]:
    """Opens and decodes an image and rotates or mirrors it as its EXIF orientation tag says.

    Pillow refuses an image of more than twice ``PIL.Image.MAX_IMAGE_PIXELS`` pixels (and warns
    beyond it) as a possible decompression bomb; the environment variable
    ``VISION_MAX_IMAGE_PIXELS``, when set (a number of pixels, or ``none`` for no limit), sets
    that limit before the file is opened.

    Args:
        file: A path, or a binary file object positioned at the start of the image. A file
            object given by the caller is left open.
        fname (str): The reader, named first by the errors.

    Yields:
        PIL.Image.Image: The image as it is meant to be displayed, decoded. Its ``info``
        (transparency among others) is kept.

    Raises:
        ImageFileError: The file is not an image Pillow reads, is truncated or corrupt, or has
            more pixels than the limit.
        OSError: The file system's errors, such as :class:`FileNotFoundError`, as they are.
        ValueError: ``VISION_MAX_IMAGE_PIXELS`` is not a number or ``none``.
    """
    _apply_pixel_limit(fname)
    try:
        img = Image.open(file)
        with img:
            oriented = ImageOps.exif_transpose(img)
            oriented.load()
    except (*_DECODING_ERRORS, Image.DecompressionBombError) as error:
        what = _explain(error)
        if what is None:
            raise
        raise ImageFileError(f'{fname}: cannot read {_name(file)}: {what}') from error
    yield oriented

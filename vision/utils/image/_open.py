"""Opening image files the same way for every reader: EXIF orientation applied."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import BinaryIO

from PIL import Image, ImageOps

PathOrFile = str | os.PathLike | BinaryIO


@contextlib.contextmanager
def open_oriented(file: PathOrFile) -> Iterator[Image.Image]:
    """Opens an image and rotates or mirrors it as its EXIF orientation tag says.

    Args:
        file: A path, or a binary file object positioned at the start of the image. A file
            object given by the caller is left open.

    Yields:
        PIL.Image.Image: The image as it is meant to be displayed. Its ``info`` (transparency
        among others) is kept.
    """
    with Image.open(file) as img:
        yield ImageOps.exif_transpose(img)

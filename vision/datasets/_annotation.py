"""Helpers for reading annotation files: the error for a malformed one, id lists, image sizes."""

from __future__ import annotations

import os

from PIL import Image

_ORIENTATION = 0x0112
_TRANSPOSED = frozenset((5, 6, 7, 8))  # EXIF orientations that swap height and width


class AnnotationError(ValueError):
    """An annotation file is malformed: a field is missing, unreadable or out of range.

    Attributes:
        path (str): The file.
        field (str): Where in the file, e.g. ``'object[2]/bndbox/xmin'`` or
            ``'annotations[17].bbox'``.
        problem (str): What is wrong.

    """

    def __init__(self, fname: str, path: str | os.PathLike, field: str, problem: str) -> None:
        self.fname = fname
        self.path = os.fspath(path)
        self.field = field
        self.problem = problem
        super().__init__(f'{fname}: {self.path}: {field} {problem}')

    def __reduce__(self):
        return type(self), (self.fname, self.path, self.field, self.problem)


def read_id_list(fname: str, path: str | os.PathLike, what: str) -> list[str]:
    """Reads a list of example ids, one a line (blank lines skipped).

    Raises:
        FileNotFoundError: The file does not exist; the message says what ``data_dir`` must be.

    """
    if not os.path.isfile(path):
        raise FileNotFoundError(f'{fname}: the split file {os.fspath(path)} does not exist; '
                                f'data_dir must be {what}')
    with open(path, encoding='utf-8') as f:
        return [line.strip() for line in f if line.strip()]


def image_size(path: str | os.PathLike) -> tuple[int, int]:
    """The ``(H, W)`` of an image as :func:`~vision.utils.read_image` returns it (EXIF
    orientation applied), read from the header without decoding the pixels."""
    with Image.open(path) as img:
        width, height = img.size
        if img.getexif().get(_ORIENTATION) in _TRANSPOSED:
            width, height = height, width
    return height, width


def check_size(fname: str, path: str | os.PathLike, field: str, shape: tuple[int, ...],
               size: tuple[int, int], of: str) -> None:
    """Raises :class:`AnnotationError` unless the last two entries of ``shape`` are ``size``."""
    if tuple(shape[-2:]) != tuple(size):
        raise AnnotationError(fname, path, field,
                              f'must have the size (H, W) = {tuple(size)} of {of}, but has '
                              f'size {tuple(shape[-2:])}')


def write_text(path: str | os.PathLike, text: str) -> None:
    """Writes a text file atomically: readers see no file or the whole file."""
    temp = os.fspath(path) + '.tmp'
    with open(temp, 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(temp, path)

"""Shared by the dataset tests: archive and image builders (the file server and the private
$VISION_HOME come from ``tests/vision/conftest.py``).

A loader test builds a small archive in the publisher's exact layout, serves it from
127.0.0.1, points the loader's URL at it (monkeypatch), and lets ``data_dir='auto'`` download,
verify, extract and parse it.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable, Mapping

import numpy
import pytest
from PIL import Image


def _zip(entries: Mapping[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _tar_gz(entries: Mapping[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode='w:gz') as archive:
        for name, data in entries.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def make_archive() -> Callable[[str, Mapping[str, bytes]], bytes]:
    """``make_archive(kind, entries)``: the bytes of a ``'zip'`` or ``'tar.gz'`` archive that
    holds ``entries`` (member name to content)."""
    return lambda kind, entries: {'zip': _zip, 'tar.gz': _tar_gz}[kind](entries)


@pytest.fixture
def image_bytes() -> Callable[..., bytes]:
    """``image_bytes(array, format='png')``: an encoded image of a uint8 ``(H, W)`` or
    ``(H, W, 3)`` array."""

    def encode(array: numpy.ndarray, format: str = 'png') -> bytes:
        buffer = io.BytesIO()
        Image.fromarray(numpy.asarray(array, dtype=numpy.uint8)).save(buffer, format=format)
        return buffer.getvalue()

    return encode

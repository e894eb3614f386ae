"""Helpers for the transform tests: random boxes, and images with boxes drawn in them."""

from __future__ import annotations

import numpy
import pytest


def _random_bbox(n: int, size: tuple[int, int], min_length: int, max_length: int,
                 seed: int = 0, integer: bool = True) -> numpy.ndarray:
    """``n`` float32 boxes inside an image of ``size`` with sides in
    ``[min_length, max_length)``; integer corners unless ``integer`` is False."""
    rng = numpy.random.default_rng(seed)
    H, W = size
    length = rng.uniform(min_length, max_length, size=(n, 2))
    if integer:
        length = numpy.floor(length)
    start = rng.uniform(0, 1, size=(n, 2)) * (numpy.array((H, W)) - length)
    if integer:
        start = numpy.floor(start)
    return numpy.concatenate((start, start + length), axis=1).astype(numpy.float32)


def _draw(bbox: numpy.ndarray, size: tuple[int, int]) -> numpy.ndarray:
    """A float32 image ``(R, H, W)``: channel ``i`` is 1 on the pixels of box ``i`` (integer
    corners) and 0 elsewhere."""
    H, W = size
    y = numpy.arange(H)[None, :, None]
    x = numpy.arange(W)[None, None, :]
    b = bbox[:, :, None, None]
    return ((b[:, 0] <= y) & (y < b[:, 2]) & (b[:, 1] <= x) & (x < b[:, 3])).astype(
        numpy.float32)


def _pixel_extent(img: numpy.ndarray, threshold: float = 0.5) -> numpy.ndarray:
    """For each channel of ``img`` (R, H, W), the box of its pixels above ``threshold``:
    ``(top row, left column, bottom row + 1, right column + 1)``, float32 ``(R, 4)``."""
    out = []
    for ch in img:
        ys, xs = numpy.nonzero(ch > threshold)
        out.append((ys.min(), xs.min(), ys.max() + 1, xs.max() + 1))
    return numpy.array(out, dtype=numpy.float32).reshape(-1, 4)


def _centres_inside(bbox: numpy.ndarray, size: tuple[int, int],
                    margin: float = 0) -> numpy.ndarray:
    """``(R, H, W)`` bool: whether the centre of each pixel of an image of ``size`` is inside
    each box (the start edges included, the stop edges not), the box enlarged by ``margin`` on
    every side (shrunk if it is negative)."""
    H, W = size
    bbox = bbox + numpy.array((-margin, -margin, margin, margin))
    y = numpy.arange(H)[None, :, None] + 0.5
    x = numpy.arange(W)[None, None, :] + 0.5
    b = bbox[:, :, None, None]
    return (b[:, 0] <= y) & (y < b[:, 2]) & (b[:, 1] <= x) & (x < b[:, 3])


@pytest.fixture
def centres_inside():
    return _centres_inside


@pytest.fixture
def random_bbox():
    return _random_bbox


@pytest.fixture
def draw():
    return _draw


@pytest.fixture
def pixel_extent():
    return _pixel_extent


@pytest.fixture
def fake_chainer(monkeypatch):
    """Installs a stand-in ``chainer`` module whose ``config`` is a plain namespace, as a
    ChainerCV test run with ``chainer.using_config`` would have, and returns that config."""
    import sys
    import types
    config = types.SimpleNamespace()
    monkeypatch.setitem(sys.modules, 'chainer', types.SimpleNamespace(config=config))
    return config

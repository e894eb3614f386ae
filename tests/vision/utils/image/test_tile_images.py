import math

import numpy
import pytest

from vision.utils import tile_images


def _tile_reference(imgs, n_col, pad, fill):
    """Cell by cell, as ChainerCV documents the layout."""
    pad_y, pad_x = pad if isinstance(pad, tuple) else (pad, pad)
    B, C, H, W = imgs.shape
    n_col = min(n_col, B)
    n_row = math.ceil(B / n_col)
    tile = numpy.empty((C, (H + pad_y) * n_row, (W + pad_x) * n_col), imgs.dtype)
    tile[:] = numpy.asarray(fill).reshape(-1, 1, 1)
    for k in range(B):
        y = k // n_col * (H + pad_y) + pad_y // 2
        x = k % n_col * (W + pad_x) + pad_x // 2
        tile[:, y:y + H, x:x + W] = imgs[k]
    return tile


FILLS = [128, (104, 117, 123), numpy.array([1.5, 2.5, 3.5]).reshape(3, 1, 1)]


@pytest.mark.parametrize('fill', FILLS)
@pytest.mark.parametrize('pad', [0, 1, 2, 3])
def test_second_row_second_column(fill, pad):
    rng = numpy.random.default_rng(pad)
    B, n_col, H, W = int(rng.integers(10, 20)), int(rng.integers(2, 5)), 30, 40
    imgs = rng.uniform(0, 255, (B, 3, H, W))
    tile = tile_images(imgs, n_col, pad, fill=fill)
    y, x = H + pad + pad // 2, W + pad + pad // 2
    numpy.testing.assert_equal(tile[:, y:y + H, x:x + W], imgs[n_col + 1])
    numpy.testing.assert_equal(tile, _tile_reference(imgs, n_col, pad, fill))


@pytest.mark.parametrize('pad', [(3, 5), (0, 2), (4, 1)])
def test_pad_pair_along_height_and_width(pad):
    rng = numpy.random.default_rng(sum(pad))
    B, n_col, H, W = 7, 3, 6, 8
    imgs = rng.uniform(0, 255, (B, 3, H, W))
    tile = tile_images(imgs, n_col, pad, fill=(1, 2, 3))
    pad_y, pad_x = pad
    assert tile.shape == (3, (H + pad_y) * 3, (W + pad_x) * n_col)
    y, x = H + pad_y + pad_y // 2, W + pad_x + pad_x // 2
    numpy.testing.assert_equal(tile[:, y:y + H, x:x + W], imgs[n_col + 1])
    numpy.testing.assert_equal(tile, _tile_reference(imgs, n_col, pad, (1, 2, 3)))


def test_small_layout_by_hand():
    imgs = numpy.arange(1, 4, dtype=numpy.int32).reshape(3, 1, 1, 1) * numpy.ones((1, 1, 2, 2),
                                                                                  numpy.int32)
    tile = tile_images(imgs, 2, pad=2, fill=0)
    expect = numpy.array([[0, 0, 0, 0, 0, 0, 0, 0],
                          [0, 1, 1, 0, 0, 2, 2, 0],
                          [0, 1, 1, 0, 0, 2, 2, 0],
                          [0, 0, 0, 0, 0, 0, 0, 0],
                          [0, 0, 0, 0, 0, 0, 0, 0],
                          [0, 3, 3, 0, 0, 0, 0, 0],
                          [0, 3, 3, 0, 0, 0, 0, 0],
                          [0, 0, 0, 0, 0, 0, 0, 0]])
    numpy.testing.assert_equal(tile, expect[None])
    assert tile.dtype == numpy.int32


def test_more_columns_than_images():
    imgs = numpy.ones((2, 1, 3, 3))
    assert tile_images(imgs, 5, pad=0).shape == (1, 3, 6)


def test_empty_batch():
    assert tile_images(numpy.zeros((0, 3, 4, 5)), 3).shape == (3, 0, 0)


@pytest.mark.parametrize('args, match', [
    ((numpy.zeros((3, 4, 5)), 2),
     r'imgs must have shape \(B, C, H, W\), but got shape \(3, 4, 5\)'),
    ((numpy.zeros((2, 3, 4, 5)), 0), 'n_col must be a positive int, but got 0'),
    ((numpy.zeros((2, 3, 4, 5)), 2, -1),
     'pad must be a non-negative int or a pair of them, but got -1'),
    ((numpy.zeros((2, 3, 4, 5)), 2, (1, 2, 3)),
     r'pad must be a non-negative int or a pair of them, but got \(1, 2, 3\)'),
    ((numpy.zeros((2, 3, 4, 5)), 2, (1, -2)),
     r'pad must be a non-negative int or a pair of them, but got \(1, -2\)'),
    ((numpy.zeros((2, 3, 4, 5)), 2, 2, (1, 2)),
     r'fill must be a scalar or hold one value per channel \(3\), but got shape \(2,\)'),
])
def test_bad_input(args, match):
    with pytest.raises(ValueError, match='tile_images: ' + match):
        tile_images(*args)

"""Arranging a batch of images in a grid."""

from __future__ import annotations

import math

import numpy


def _is_count(value) -> bool:
    return (isinstance(value, (int, numpy.integer)) and not isinstance(value, bool)
            and value >= 0)


def _pad_pair(pad) -> tuple[int, int]:
    """``(pad_y, pad_x)`` from an int or a pair of non-negative ints."""
    pair = pad if isinstance(pad, (tuple, list)) else (pad, pad)
    if len(pair) != 2 or not all(_is_count(p) for p in pair):
        raise ValueError('tile_images: pad must be a non-negative int or a pair of them, '
                         f'but got {pad!r}')
    return int(pair[0]), int(pair[1])


def tile_images(imgs: numpy.ndarray, n_col: int, pad: int | tuple[int, int] = 2,
                fill: float | tuple | numpy.ndarray = 0) -> numpy.ndarray:
    """Makes one image out of a batch of images laid out in a grid.

    The images fill the grid row by row. Each occupies a cell of
    :math:`(H + pad_y, W + pad_x)` pixels, with ``pad_y // 2`` pixels of ``fill`` above it and
    ``pad_x // 2`` to its left; cells that no image reaches are ``fill`` throughout.

    Args:
        imgs (~numpy.ndarray): A batch of images of shape :math:`(B, C, H, W)`.
        n_col (int): The number of columns. If it exceeds :math:`B`, :math:`B` columns are used.
        pad (int or pair of ints): The number of pixels between neighbouring images,
            ``(pad_y, pad_x)`` along the height and the width; an int is used for both. The
            default is 2.
        fill (float, tuple or ~numpy.ndarray): The value of the padding: a scalar, or one value
            per channel as a sequence of length :math:`C` or an array of shape
            :math:`(C, 1, 1)`.

    Returns:
        ~numpy.ndarray: An image of shape
        :math:`(C, (H + pad_y) \\lceil B / n_{col} \\rceil, (W + pad_x) n_{col})` and the
        dtype of ``imgs``.
    """
    imgs = numpy.asarray(imgs)
    if imgs.ndim != 4:
        raise ValueError(f'tile_images: imgs must have shape (B, C, H, W), but got shape '
                         f'{imgs.shape}')
    if isinstance(n_col, bool) or not isinstance(n_col, (int, numpy.integer)) or n_col < 1:
        raise ValueError(f'tile_images: n_col must be a positive int, but got {n_col!r}')
    pad_y, pad_x = _pad_pair(pad)
    B, C, H, W = imgs.shape
    fill = numpy.asarray(fill)
    if fill.size not in (1, C):
        raise ValueError(f'tile_images: fill must be a scalar or hold one value per channel '
                         f'({C}), but got shape {fill.shape}')

    n_col = min(n_col, B)
    n_row = math.ceil(B / n_col) if B else 0
    cell_h, cell_w = H + pad_y, W + pad_x
    cells = numpy.empty((n_row * n_col, C, cell_h, cell_w), dtype=imgs.dtype)
    cells[...] = fill.reshape(-1, 1, 1)
    top, left = pad_y // 2, pad_x // 2
    cells[:B, :, top:top + H, left:left + W] = imgs
    # (row, col, C, y, x) -> (C, row, y, col, x): rows of cells become rows of pixels.
    grid = cells.reshape(n_row, n_col, C, cell_h, cell_w).transpose(2, 0, 3, 1, 4)
    return grid.reshape(C, n_row * cell_h, n_col * cell_w)

"""Arranging a batch of images in a grid."""

from __future__ import annotations

import math

import numpy


def tile_images(imgs: numpy.ndarray, n_col: int, pad: int = 2,
                fill: float | tuple | numpy.ndarray = 0) -> numpy.ndarray:
    """Makes one image out of a batch of images laid out in a grid.

    The images fill the grid row by row. Each occupies a cell of :math:`(H + pad, W + pad)`
    pixels, with ``pad // 2`` pixels of ``fill`` above it and to its left; cells that no image
    reaches are ``fill`` throughout.

    Args:
        imgs (~numpy.ndarray): A batch of images of shape :math:`(B, C, H, W)`.
        n_col (int): The number of columns. If it exceeds :math:`B`, :math:`B` columns are used.
        pad (int): The number of pixels between neighbouring images. The default is 2.
        fill (float, tuple or ~numpy.ndarray): The value of the padding: a scalar, or one value
            per channel as a sequence of length :math:`C` or an array of shape
            :math:`(C, 1, 1)`.

    Returns:
        ~numpy.ndarray: An image of shape
        :math:`(C, (H + pad) \\lceil B / n_{col} \\rceil, (W + pad) n_{col})` and the dtype
        of ``imgs``.
    """
    imgs = numpy.asarray(imgs)
    if imgs.ndim != 4:
        raise ValueError(f'tile_images: imgs must have shape (B, C, H, W), but got shape '
                         f'{imgs.shape}')
    if isinstance(n_col, bool) or not isinstance(n_col, (int, numpy.integer)) or n_col < 1:
        raise ValueError(f'tile_images: n_col must be a positive int, but got {n_col!r}')
    if isinstance(pad, bool) or not isinstance(pad, (int, numpy.integer)) or pad < 0:
        raise ValueError(f'tile_images: pad must be a non-negative int, but got {pad!r}')
    B, C, H, W = imgs.shape
    fill = numpy.asarray(fill)
    if fill.size not in (1, C):
        raise ValueError(f'tile_images: fill must be a scalar or hold one value per channel '
                         f'({C}), but got shape {fill.shape}')

    n_col = min(n_col, B)
    n_row = math.ceil(B / n_col) if B else 0
    cells = numpy.empty((n_row * n_col, C, H + pad, W + pad), dtype=imgs.dtype)
    cells[...] = fill.reshape(-1, 1, 1)
    offset = pad // 2
    cells[:B, :, offset:offset + H, offset:offset + W] = imgs
    # (row, col, C, y, x) -> (C, row, y, col, x): rows of cells become rows of pixels.
    grid = cells.reshape(n_row, n_col, C, H + pad, W + pad).transpose(2, 0, 3, 1, 4)
    return grid.reshape(C, n_row * (H + pad), n_col * (W + pad))

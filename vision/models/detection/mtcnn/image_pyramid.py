"""The image pyramid of MTCNN's first stage and P-Net's scan of its levels.

The levels are made from the image's summed-area table one at a time, and each is scanned in
bands of rows, so memory stays bounded for any image size. Bands overlap by P-Net's receptive
field and start on even rows, so the scan equals P-Net run on the whole level.
"""

from __future__ import annotations

import math

import numpy

from framework import backend
from vision.models.detection.mtcnn.area_resampling import area_windows, normalize, window_means

_CELL_SIZE = 12
# Rows of the level that P-Net's output rows a..b read: 2a .. 2b + _OVERLAP.
_OVERLAP = 10
# The most level pixels scanned at once (about 100 MB of activations and im2col buffers).
_BAND_PIXELS = 1 << 18


def pyramid_scales(height: int, width: int, min_size: float, factor: float) -> list[float]:
    """The scales of the pyramid's levels, largest first.

    The first maps a face of ``min_size`` pixels to P-Net's 12x12 window; each next is
    ``factor`` times the previous, down to the last whose shorter side still has 12 pixels.

    Args:
        height (int): the image's height.
        width (int): the image's width.
        min_size (float): the smallest face to find, in pixels.
        factor (float): the ratio of consecutive scales, in ``(0, 1)``.

    Returns:
        list of float: the scales; empty when the image is too small.
    """
    scale = _CELL_SIZE / min_size
    shorter = min(height, width) * scale
    scales = []
    while shorter >= _CELL_SIZE:
        scales.append(scale)
        scale *= factor
        shorter *= factor
    return scales


def level_size(height: int, width: int, scale: float) -> tuple[int, int]:
    """The size ``(int(height * scale + 1), int(width * scale + 1))`` of a level."""
    return int(height * scale + 1), int(width * scale + 1)


def scan_level(pnet, table, size: tuple[int, int], thresh: float):
    """Runs P-Net over one pyramid level and returns the cells that score ``>= thresh``.

    Args:
        pnet (~vision.models.detection.mtcnn.PNet): the net, on the device of ``table``.
        table (array): float64 ``(C, H + 1, W + 1)`` summed-area table of the image.
        size (tuple of int): the level's ``(height, width)``, each at least 12.
        thresh (float): the least face probability of a cell that is kept.

    Returns:
        tuple: int64 ``(K,)`` rows and columns of the kept cells in P-Net's output, float32
        ``(K,)`` their face probabilities and float32 ``(K, 4)`` offsets
        ``(dy_min, dx_min, dy_max, dx_max)``.
    """
    xp = backend.get_array_module(table)
    height, width = size
    image_height, image_width = table.shape[1] - 1, table.shape[2] - 1
    zero = xp.zeros(1, dtype=numpy.int64)
    rows = area_windows(zero, xp.asarray([image_height]), height)
    cols = area_windows(zero, xp.asarray([image_width]), width)
    n_out = math.ceil((height - 2) / 2) - 4
    band = max(1, (_BAND_PIXELS // width - _OVERLAP) // 2)
    found = []
    for first in range(0, n_out, band):
        last = min(first + band, n_out)
        level_rows = slice(2 * first, min(2 * last + _OVERLAP, height))
        x = normalize(window_means(table, (rows[0][:, level_rows], rows[1][:, level_rows]),
                                   cols))
        offset, prob = pnet.infer(x)
        score = prob.array[0, 1]
        y, x = xp.nonzero(score >= numpy.float32(thresh))
        found.append((y + first, x, score[y, x], offset.array[0][:, y, x].T))
    y, x, score, offset = (xp.concatenate(part) for part in zip(*found))
    return y.astype(numpy.int64), x.astype(numpy.int64), score, offset[:, [1, 0, 3, 2]]

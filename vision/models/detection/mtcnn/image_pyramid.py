"""The image pyramid of MTCNN's first stage and P-Net's scan of its levels.

The levels are made from the image's summed-area table and scanned in bands of rows, a band
at a time per CPU worker, so memory stays bounded for any image size. Bands overlap by P-Net's
receptive field and start on even rows, so the scan equals P-Net run on the whole level.
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


def level_bands(size: tuple[int, int]) -> list[tuple[int, int]]:
    """The bands of rows a level is scanned in, as ranges ``[first, last)`` of P-Net's
    output rows; each reads at most about ``_BAND_PIXELS`` pixels of the level.

    Args:
        size (tuple of int): the level's ``(height, width)``, each at least 12.

    Returns:
        list of tuple of int: the bands, top to bottom.
    """
    height, width = size
    n_out = math.ceil((height - 2) / 2) - 4
    band = max(1, (_BAND_PIXELS // width - _OVERLAP) // 2)
    return [(first, min(first + band, n_out)) for first in range(0, n_out, band)]


def scan_band(pnet, table, size: tuple[int, int], band: tuple[int, int], thresh: float):
    """Runs P-Net over one band of a pyramid level and returns the cells that score
    ``>= thresh``.

    Args:
        pnet (~vision.models.detection.mtcnn.PNet): the net, on the device of ``table``.
        table (array): float64 ``(C, H + 1, W + 1)`` summed-area table of the image.
        size (tuple of int): the level's ``(height, width)``, each at least 12.
        band (tuple of int): the range ``[first, last)`` of P-Net's output rows to compute,
            one of :func:`level_bands`.
        thresh (float): the least face probability of a cell that is kept.

    Returns:
        tuple: int64 ``(K,)`` rows and columns of the kept cells in P-Net's output on the
        whole level, float32 ``(K,)`` their face probabilities and float32 ``(K, 4)`` offsets
        ``(dy_min, dx_min, dy_max, dx_max)``, in row-major order of the cells.
    """
    xp = backend.get_array_module(table)
    height, width = size
    image_height, image_width = table.shape[1] - 1, table.shape[2] - 1
    first, last = band
    zero = xp.zeros(1, dtype=numpy.int64)
    rows = area_windows(zero, xp.asarray([image_height]), height)
    cols = area_windows(zero, xp.asarray([image_width]), width)
    level_rows = slice(2 * first, min(2 * last + _OVERLAP, height))
    x = normalize(window_means(table, (rows[0][:, level_rows], rows[1][:, level_rows]), cols))
    offset, prob = pnet.infer(x)
    score = prob.array[0, 1]
    y, x = xp.nonzero(score >= numpy.float32(thresh))
    offset = offset.array[0][:, y, x].T
    return ((y + first).astype(numpy.int64), x.astype(numpy.int64), score[y, x],
            offset[:, [1, 0, 3, 2]])


def scan_level(pnet, table, size: tuple[int, int], thresh: float):
    """Runs P-Net over one pyramid level, band by band, and returns the cells that score
    ``>= thresh``: :func:`scan_band` over the :func:`level_bands`, joined.

    Args:
        pnet (~vision.models.detection.mtcnn.PNet): the net, on the device of ``table``.
        table (array): float64 ``(C, H + 1, W + 1)`` summed-area table of the image.
        size (tuple of int): the level's ``(height, width)``, each at least 12.
        thresh (float): the least face probability of a cell that is kept.

    Returns:
        tuple: as :func:`scan_band` returns, for the whole level.
    """
    return join_bands([scan_band(pnet, table, size, band, thresh) for band in level_bands(size)])


def join_bands(found: list) -> tuple:
    """The cells :func:`scan_band` found in the bands of a level, joined in band order."""
    xp = backend.get_array_module(found[0][0])
    return tuple(xp.concatenate(part) for part in zip(*found))

"""The tiles of PSPNet's sliding-window inference (ChainerCV's ``convolution_crop``)."""

from __future__ import annotations

import math
from collections.abc import Iterator


def sliding_windows(size: tuple[int, int], window: tuple[int, int], stride: tuple[int, int]
                    ) -> Iterator[tuple[slice, slice, slice, slice]]:
    """The windows of ``window`` size, ``stride`` apart, that cover an image of ``size``.

    As ChainerCV's ``convolution_crop``: along each axis, the fewest windows that cover the
    image (``ceil((H - h) / s) + 1``), the whole row of them centred on the image (the first
    starting at ``-(h + s * (n - 1) - H) // 2``, which may be negative: the windows that stick
    out are padded). Beyond ChainerCV, there is at least one window along an axis that is
    shorter than the window by more than the stride (ChainerCV makes none there and its
    scores are 0 / 0).

    Args:
        size (pair of int): ``(H, W)``, the image's.
        window (pair of int): ``(h, w)``.
        stride (pair of int): ``(s_y, s_x)``.

    Yields:
        tuple of four slices: ``y_slice, x_slice``, the part of the image the window covers,
        and ``crop_y_slice, crop_x_slice``, where that part lies in the window; row by row.
    """
    starts = [_starts(n, w, s) for n, w, s in zip(size, window, stride)]
    for y in starts[0]:
        for x in starts[1]:
            (y_slice, crop_y), (x_slice, crop_x) = (
                _overlap(start, w, n) for start, w, n in ((y, window[0], size[0]),
                                                          (x, window[1], size[1])))
            yield y_slice, x_slice, crop_y, crop_x


def _starts(length: int, window: int, stride: int) -> list[int]:
    count = max(math.ceil((length - window) / stride) + 1, 1)
    first = -(window + stride * (count - 1) - length) // 2
    return [first + i * stride for i in range(count)]


def _overlap(start: int, window: int, length: int) -> tuple[slice, slice]:
    """The part ``[start, start + window)`` of ``[0, length)``, in the image's coordinates
    and in the window's."""
    end = start + window
    return (slice(max(start, 0), min(end, length)),
            slice(max(-start, 0), window - max(end - length, 0)))

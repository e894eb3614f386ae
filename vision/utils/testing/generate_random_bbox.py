"""Random valid bounding boxes, for tests."""

from __future__ import annotations

import numpy


def _nudge(low: numpy.ndarray, high: numpy.ndarray, min_length, max_length) -> numpy.ndarray:
    """Moves float32 ``high`` by ulps until ``min_length <= high - low < max_length``.

    Rounding the float64 draws to float32 can put a length on the wrong side of a bound, by
    an ulp or two. (When ``min_length == max_length`` no length fits; the draws are kept.)
    """
    for _ in range(4):
        length = high - low
        too_long = length >= max_length
        too_short = length < min_length
        high = numpy.where(too_long & ~too_short,
                           numpy.nextafter(high, numpy.float32(-numpy.inf)), high)
        high = numpy.where(too_short & ~too_long,
                           numpy.nextafter(high, numpy.float32(numpy.inf)), high)
    return high


def generate_random_bbox(n: int, img_size: tuple[int, int], min_length: float,
                         max_length: float, *,
                         rng: numpy.random.Generator | None = None) -> numpy.ndarray:
    """Generates valid bounding boxes with random positions and sizes.

    Heights and widths are drawn uniformly from :math:`[min\\_length, max\\_length)` and
    the top-left corners uniformly from :math:`[0, H - max\\_length) \\times
    [0, W - max\\_length)`, so every box lies inside the image.

    Args:
        n (int): The number of boxes.
        img_size (tuple of ints): The size :math:`(H, W)` of the image.
        min_length (float): The smallest height and width of a box.
        max_length (float): The bound the heights and widths stay below; it should not exceed
            :math:`H` or :math:`W`.
        rng (numpy.random.Generator): The random generator to draw from. If :obj:`None`
            (default), the global :mod:`numpy.random` state is used, as in ChainerCV.

    Returns:
        ~numpy.ndarray:
        A float32 array of shape :math:`(n, 4)`, each row ``(y_min, x_min, y_max, x_max)``,
        with :math:`min\\_length \\leq y_{max} - y_{min} < max\\_length` and the same for
        :math:`x`.
    """
    uniform = numpy.random.uniform if rng is None else rng.uniform
    H, W = img_size
    y_min = uniform(0, H - max_length, size=n)
    x_min = uniform(0, W - max_length, size=n)
    y_max = y_min + uniform(min_length, max_length, size=n)
    x_max = x_min + uniform(min_length, max_length, size=n)
    bbox = numpy.stack((y_min, x_min, y_max, x_max), axis=1).astype(numpy.float32)
    bbox[:, 2] = _nudge(bbox[:, 0], bbox[:, 2], min_length, max_length)
    bbox[:, 3] = _nudge(bbox[:, 1], bbox[:, 3], min_length, max_length)
    return bbox

"""The anchors of one feature-map cell (ChainerCV's ``generate_anchor_base``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy


def generate_anchor_base(base_size: float = 16, ratios: Sequence[float] = (0.5, 1, 2),
                         anchor_scales: Sequence[float] = (8, 16, 32)) -> numpy.ndarray:
    """Anchors of every ratio and scale centred on the cell ``[0, base_size)^2``.

    The anchor of ratio :math:`r` and scale :math:`s` has height
    :math:`base\\_size \\cdot s \\sqrt{r}` and width :math:`base\\_size \\cdot s / \\sqrt{r}`
    (so :math:`r` is its height over its width and its area is :math:`(base\\_size \\cdot s)^2`),
    centred on :math:`(base\\_size / 2, base\\_size / 2)`.

    Args:
        base_size (float): the side of the cell, in input pixels (the feature stride).
        ratios (sequence of float): the height-to-width ratios.
        anchor_scales (sequence of float): the sides of the anchors in cells.

    Returns:
        numpy.ndarray: ``(len(ratios) * len(anchor_scales), 4)`` float32, each
        ``(y_min, x_min, y_max, x_max)``, ratio-major (anchor ``i * len(anchor_scales) + j``
        has ratio ``i`` and scale ``j``).
    """
    ratios = numpy.asarray(ratios, numpy.float64)[:, None]
    scales = numpy.asarray(anchor_scales, numpy.float64)[None, :]
    h = (base_size * scales * numpy.sqrt(ratios)).ravel()
    w = (base_size * scales * numpy.sqrt(1. / ratios)).ravel()
    centre = base_size / 2.
    return numpy.stack((centre - h / 2., centre - w / 2., centre + h / 2., centre + w / 2.),
                       axis=1).astype(numpy.float32)

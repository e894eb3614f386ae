"""The two non-maximum suppressions of MTCNN.

- :func:`suppress_by_iou`: torchvision's ``nms``, which the reference runs in every stage but
  the last. It is :func:`vision.utils.non_maximum_suppression` (the same float32 IoU, the same
  stable order by decreasing score) but for the comparison: torchvision suppresses a box when
  the IoU is strictly above the threshold (as a double), the project's function when it is at
  or above it. P-Net's boxes have integer coordinates and often meet at an IoU of exactly 0.5,
  so the threshold passed on is the least float32 above the given one.
- :func:`suppress_by_min_area`: the last stage's suppression by the intersection over the
  smaller box's area, with sizes that count both edges (``x_max - x_min + 1``), from the
  original MTCNN's code. The project has no such function.
"""

from __future__ import annotations

import numpy

from framework import backend
from vision.utils import non_maximum_suppression


def _least_float32_above(thresh: float) -> float:
    value = numpy.float32(thresh)
    if value <= thresh:
        value = numpy.nextafter(value, numpy.float32(numpy.inf))
    return float(value)


def suppress_by_iou(bbox, score, thresh: float):
    """Greedy NMS that suppresses a box whose IoU with a kept one is above ``thresh``.

    Args:
        bbox (array): float32 ``(R, 4)`` boxes.
        score (array): float32 ``(R,)`` scores.
        thresh (float): the IoU above which a box is suppressed.

    Returns:
        array: int64 ``(K,)`` indices of the kept boxes by decreasing score (ties in the
        order given), on the device of ``bbox``.
    """
    xp = backend.get_array_module(bbox)
    keep = non_maximum_suppression(backend.to_cpu(bbox), _least_float32_above(thresh),
                                   backend.to_cpu(score))
    return xp.asarray(keep, dtype=numpy.int64)


def suppress_by_min_area(bbox, score, thresh: float):
    """Greedy NMS that suppresses a box when its intersection with a kept box, over the
    smaller of their areas, is above ``thresh``; sizes count both edges.

    Args:
        bbox (array): float32 ``(R, 4)`` boxes.
        score (array): float32 ``(R,)`` scores.
        thresh (float): the overlap above which a box is suppressed.

    Returns:
        array: int64 ``(K,)`` indices of the kept boxes by decreasing score (ties in the
        order given), on the device of ``bbox``.
    """
    xp = backend.get_array_module(bbox)
    box = backend.to_cpu(bbox)
    order = numpy.argsort(-backend.to_cpu(score).astype(numpy.float64), kind='stable')
    low, high = box[:, :2], box[:, 2:]
    area = numpy.prod(high - low + 1, axis=1)
    thresh = numpy.float32(thresh)
    keep = []
    while order.size:
        i, rest = order[0], order[1:]
        side = numpy.minimum(high[i], high[rest]) - numpy.maximum(low[i], low[rest]) + 1
        overlap = numpy.prod(numpy.maximum(side, 0), axis=1)
        overlap /= numpy.minimum(area[i], area[rest])
        keep.append(i)
        order = rest[overlap <= thresh]
    return xp.asarray(numpy.asarray(keep, dtype=numpy.int64))

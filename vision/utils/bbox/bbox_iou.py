"""Intersection over union between two sets of bounding boxes."""

from __future__ import annotations

import numpy

from framework import backend
from vision.utils._validation import as_bbox


def box_area(y_min, x_min, y_max, x_max) -> numpy.ndarray:
    """Returns ``(y_max - y_min) * (x_max - x_min)``, elementwise."""
    with numpy.errstate(invalid='ignore', over='ignore'):
        return (y_max - y_min) * (x_max - x_min)


def iou_of_pairs(box_a, area_a: numpy.ndarray, box_b, area_b: numpy.ndarray) -> numpy.ndarray:
    """Elementwise IoU of two sets of boxes given as columns, broadcasting.

    ``box_a`` and ``box_b`` are sequences of four floating-point arrays
    ``(y_min, x_min, y_max, x_max)`` and ``area_a``, ``area_b`` their :func:`box_area`. Both
    :func:`bbox_iou` and the suppression in :func:`non_maximum_suppression` compute with this
    one function, so that a box is suppressed exactly when :func:`bbox_iou` reaches the
    threshold. A pair whose union is empty (two boxes of zero area) gives NaN. The arrays
    may live on any device (all on one).
    """
    y_min_a, x_min_a, y_max_a, x_max_a = box_a
    y_min_b, x_min_b, y_max_b, x_max_b = box_b
    xp = backend.get_array_module(y_min_a)
    with numpy.errstate(divide='ignore', invalid='ignore', over='ignore'):
        intersection = xp.minimum(y_max_a, y_max_b)
        intersection -= xp.maximum(y_min_a, y_min_b)
        xp.maximum(intersection, 0, out=intersection)
        width = xp.minimum(x_max_a, x_max_b)
        width -= xp.maximum(x_min_a, x_min_b)
        xp.maximum(width, 0, out=width)
        intersection *= width
        union = area_a + area_b
        union -= intersection
        intersection /= union
    return intersection


def compute_dtype(*arrays: numpy.ndarray) -> numpy.dtype:
    """The floating-point dtype IoUs of these boxes are computed in (at least float32)."""
    return numpy.result_type(*(a.dtype for a in arrays), numpy.float32)


def bbox_iou(bbox_a: numpy.ndarray, bbox_b: numpy.ndarray) -> numpy.ndarray:
    """Calculates the Intersection over Union (IoU) between bounding boxes.

    The IoU of two boxes is the area of their intersection divided by the area of their union.
    Boxes that only touch have an IoU of 0; two boxes of zero area have an IoU of NaN.

    Args:
        bbox_a (~numpy.ndarray): An array of shape :math:`(N, 4)`, each row
            ``(y_min, x_min, y_max, x_max)``. The dtype should be :obj:`numpy.float32`;
            any integer or floating-point dtype is accepted.
        bbox_b (~numpy.ndarray): An array like ``bbox_a``, of shape :math:`(K, 4)`.

    Returns:
        ~numpy.ndarray:
        An array of shape :math:`(N, K)`, on the device of the boxes, whose element
        :math:`(n, k)` is the IoU of the :math:`n`-th box of ``bbox_a`` and the :math:`k`-th
        box of ``bbox_b``. Its dtype is :obj:`numpy.float32` for float32 (and small integer)
        boxes, else :obj:`numpy.float64`.

    Raises:
        ValueError: If a box array does not have shape :math:`(R, 4)` (also an
            :class:`IndexError`, as in ChainerCV), or the two live on different devices.
        TypeError: If a box array is not a real array.
    """
    bbox_a = as_bbox('bbox_iou', 'bbox_a', bbox_a)
    bbox_b = as_bbox('bbox_iou', 'bbox_b', bbox_b)
    backend.same_device('bbox_iou', (bbox_a, bbox_b), ('bbox_a', 'bbox_b'))
    dtype = compute_dtype(bbox_a, bbox_b)
    bbox_a = bbox_a.astype(dtype, copy=False)
    bbox_b = bbox_b.astype(dtype, copy=False)
    return iou_of_pairs(bbox_a.T[:, :, None], box_area(*bbox_a.T)[:, None],
                        bbox_b.T[:, None], box_area(*bbox_b.T)[None])

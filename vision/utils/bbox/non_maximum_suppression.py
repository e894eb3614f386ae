"""Non-maximum suppression: over all boxes, and class by class."""

from __future__ import annotations

import numpy

from framework import backend
from vision.utils._validation import (
    ShapeError,
    as_bbox,
    as_real_array,
    optional_count,
    real_number,
)
from vision.utils.bbox._greedy import greedy_suppression
from vision.utils.bbox.bbox_iou import compute_dtype


def _priority(fname: str, score, n_bbox: int) -> numpy.ndarray:
    """Indices by decreasing score, ties by increasing index; NaN scores come last."""
    if score is None:
        return numpy.arange(n_bbox)
    score = as_real_array(fname, 'score', score, 1, '(R,)')
    if score.shape != (n_bbox,):
        raise ShapeError(f'{fname}: score must have shape (R,) with R = len(bbox) = {n_bbox}, '
                         f'but got shape {score.shape}')
    return numpy.argsort(-score.astype(numpy.float64), kind='stable')


def _suppress(fname, bbox, thresh, score, limit, label=None) -> numpy.ndarray:
    bbox = as_bbox(fname, 'bbox', bbox)
    device = backend.same_device(fname, (bbox, score, label), ('bbox', 'score', 'label'))
    # The greedy suppression runs on the host: arrays of another device are copied here, and
    # the indices go back to the device of the boxes.
    bbox, score, label = backend.to_cpu((bbox, score, label))
    thresh = real_number(fname, 'thresh', thresh)
    limit = optional_count(fname, 'limit', limit)
    order = _priority(fname, score, len(bbox))
    group = None
    if label is not None:
        label = as_real_array(fname, 'label', label, 1, '(R,)')
        if label.shape != (len(bbox),):
            raise ShapeError(f'{fname}: label must have shape (R,) with R = len(bbox) = '
                             f'{len(bbox)}, but got shape {label.shape}')
        if label.dtype.kind not in 'iu':
            raise TypeError(f'{fname}: label must be an integer array, but got dtype '
                            f'{label.dtype}')
        group = label[order]
    box = bbox[order].astype(compute_dtype(bbox), copy=False)
    kept = greedy_suppression(box, thresh, group, limit)
    return device.send(order[kept].astype(numpy.int32))


def non_maximum_suppression(bbox: numpy.ndarray, thresh: float,
                            score: numpy.ndarray | None = None,
                            limit: int | None = None) -> numpy.ndarray:
    """Suppresses bounding boxes that overlap a box of higher score.

    The boxes are visited from the highest score down. A box is selected unless its
    Intersection over Union with an already selected box is at least ``thresh``: exactly when
    :func:`bbox_iou` of the pair is ``>= thresh``. So with ``thresh`` 0 the first box suppresses
    all others but those whose IoU with it is NaN: two boxes of zero area never suppress each
    other.
    Without ``score`` the boxes are visited in the order given; boxes of equal score are visited
    in the order given too (ChainerCV left that order unspecified).

    The work is vectorised: blocks of boxes are resolved with matrix products, and a selected
    box is compared only with nearby boxes of a similar size that are still alive, so tens of
    thousands of boxes take tens to hundreds of milliseconds.

    Args:
        bbox (~numpy.ndarray): Boxes of shape :math:`(R, 4)`, each
            ``(y_min, x_min, y_max, x_max)``; any integer or floating-point dtype.
        thresh (float): The IoU at which a box is suppressed.
        score (~numpy.ndarray): Confidences of shape :math:`(R,)`; NaN scores come last.
        limit (int): The largest number of boxes to select; :obj:`None` selects as many as
            possible.

    Returns:
        ~numpy.ndarray:
        The indices of the selected boxes, in the order they were selected (by decreasing
        score), on the device of ``bbox`` (the suppression itself runs on the host). Its shape
        is :math:`(K,)` with :math:`K \\leq R`, and its dtype is :obj:`numpy.int32`.

    Raises:
        ValueError: If an array has the wrong shape, ``thresh`` is NaN, ``limit`` is negative
            or the arrays live on different devices.
        TypeError: If an argument has the wrong type.
    """
    return _suppress('non_maximum_suppression', bbox, thresh, score, limit)


def batched_non_maximum_suppression(bbox: numpy.ndarray, score: numpy.ndarray,
                                    label: numpy.ndarray, thresh: float,
                                    limit: int | None = None) -> numpy.ndarray:
    """Non-maximum suppression within each class: boxes of different labels never interact.

    The result equals running :func:`non_maximum_suppression` on the boxes of each label
    separately, merging the selections by decreasing score (ties in the order given) and
    keeping the first ``limit``, but it is computed in one pass. ChainerCV had no function for
    this; its detectors looped over the classes.

    Args:
        bbox (~numpy.ndarray): Boxes of shape :math:`(R, 4)`, each
            ``(y_min, x_min, y_max, x_max)``.
        score (~numpy.ndarray): Confidences of shape :math:`(R,)`.
        label (~numpy.ndarray): Integer class labels of shape :math:`(R,)`.
        thresh (float): The IoU at which a box is suppressed by a box of the same label.
        limit (int): The largest number of boxes to select over all labels.

    Returns:
        ~numpy.ndarray:
        The indices of the selected boxes, by decreasing score, on the device of ``bbox``;
        shape :math:`(K,)`, dtype :obj:`numpy.int32`.

    Raises:
        ValueError: If an array has the wrong shape, ``thresh`` is NaN, ``limit`` is negative
            or the arrays live on different devices.
        TypeError: If an argument has the wrong type.
    """
    if score is None:
        raise TypeError('batched_non_maximum_suppression: score must be an array of shape '
                        '(R,), but got None')
    if label is None:
        raise TypeError('batched_non_maximum_suppression: label must be an array of shape '
                        '(R,), but got None')
    return _suppress('batched_non_maximum_suppression', bbox, thresh, score, limit, label)

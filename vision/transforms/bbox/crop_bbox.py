"""Cutting boxes to a cropped region of their image."""

from __future__ import annotations

import numbers

import numpy

from vision.utils._validation import as_bbox


def crop_bbox(bbox: numpy.ndarray, y_slice: slice | None = None, x_slice: slice | None = None,
              allow_outside_center: bool = True, return_param: bool = False
              ) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Cuts boxes to the region ``img[:, y_slice, x_slice]`` of their image and moves them to
    its coordinates.

    Each box is clipped to the region and translated so that the region's top-left corner is
    the origin (as :func:`~vision.transforms.translate_bbox` with negative offsets). Boxes left
    with no area, i.e. not overlapping the region, are removed, and so are, if
    ``allow_outside_center`` is :obj:`False`, boxes whose centre is outside the region
    (:math:`y_{start} \\le y_{centre} < y_{stop}`, the same along x, is kept).

    Args:
        bbox (~numpy.ndarray): Boxes, :math:`(R, 4)`, floating point, each
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        y_slice (slice): The rows of the region; None, or a missing start or stop, leaves
            that side open.
        x_slice (slice): The columns of the region, likewise.
        allow_outside_center (bool): If :obj:`False`, boxes whose centre is outside the region
            are removed. The default is :obj:`True`.
        return_param (bool): If :obj:`True`, which boxes are kept is returned too.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The kept boxes, :math:`(R', 4)`, of the dtype of ``bbox``; with ``return_param``, also
        a dict with

        * **index** (*numpy.ndarray*): the indices in ``bbox`` of the kept boxes, so that
          labels follow with ``label[param['index']]``.
        * **truncated_index** (*numpy.ndarray*): the indices, among the **returned** boxes, of
          those that were clipped.
    """
    bbox = as_bbox('crop_bbox', 'bbox', bbox, kinds='f')
    top, bottom = _bounds('y_slice', y_slice)
    left, right = _bounds('x_slice', x_slice)
    start = numpy.array((top, left))
    stop = numpy.array((bottom, right))

    if allow_outside_center:
        keep = numpy.ones(len(bbox), dtype=bool)
    else:
        center = (bbox[:, :2] + bbox[:, 2:]) / 2
        keep = ((start <= center) & (center < stop)).all(axis=1)

    out = bbox.copy()
    out[:, :2] = numpy.maximum(bbox[:, :2], start)
    out[:, 2:] = numpy.minimum(bbox[:, 2:], stop)
    truncated = (out != bbox).any(axis=1)
    out[:, :2] -= start
    out[:, 2:] -= start

    keep &= (out[:, :2] < out[:, 2:]).all(axis=1)
    out = out[keep]
    if return_param:
        return out, {'index': numpy.flatnonzero(keep),
                     'truncated_index': numpy.flatnonzero(truncated[keep])}
    return out


def _bounds(name: str, slice_: slice | None) -> tuple[float, float]:
    """``(start, stop)`` of a slice, with 0 and infinity for the open sides."""
    if slice_ is None:
        return 0, numpy.inf
    if not isinstance(slice_, slice):
        raise TypeError(f'crop_bbox: {name} must be a slice or None, '
                        f'but got {type(slice_).__name__}')
    for value in (slice_.start, slice_.stop):
        if value is not None and (not isinstance(value, numbers.Real) or value < 0):
            raise ValueError(f'crop_bbox: {name} must have a non-negative start and stop '
                             f'(or None), but got {slice_}')
    if slice_.step not in (None, 1):
        raise ValueError(f'crop_bbox: {name} must have a step of 1, but got {slice_}')
    return (0 if slice_.start is None else slice_.start,
            numpy.inf if slice_.stop is None else slice_.stop)

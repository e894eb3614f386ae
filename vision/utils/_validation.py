"""Argument checks with messages that name what went wrong.

:func:`as_bbox` is the one check of the box contract: the box and mask helpers, the transforms,
the evaluations and the visualizations all call it, so a wrong box raises one error type
(:class:`ShapeError` for the shape, :class:`TypeError` for the dtype) with one message.

Each check names the function, the argument, what was expected and what was given, e.g.
``bbox_iou: bbox_a must have shape (R, 4), but got shape (3, 5)``.
"""

from __future__ import annotations

import numbers

import numpy

from framework import backend


class ShapeError(ValueError, IndexError):
    """An array of the wrong shape.

    A :class:`ValueError`, and also an :class:`IndexError`, which is what ChainerCV raised for
    the same mistakes, so that code written against ChainerCV keeps catching it.
    """


def as_array(fname: str, name: str, x) -> numpy.ndarray:
    """Returns ``x`` as an array: an array of any device as it is (never copied to the host),
    anything else through :func:`numpy.asarray`; raises TypeError for objects that are not
    arrays."""
    if backend.is_array(x) and not isinstance(x, numpy.ndarray):
        array = x
    else:
        try:
            array = numpy.asarray(x)
        except (TypeError, ValueError) as error:
            raise TypeError(f'{fname}: {name} must be an array, but got {type(x).__name__} '
                            f'({error})') from None
    if array.dtype == object:
        raise TypeError(f'{fname}: {name} must be a numeric array, but got dtype object')
    return array


def as_real_array(fname: str, name: str, x, ndim: int, shape_text: str) -> numpy.ndarray:
    """Returns ``x`` as an integer or floating-point array of ``ndim`` dimensions."""
    array = as_array(fname, name, x)
    if array.ndim != ndim:
        raise ShapeError(f'{fname}: {name} must have shape {shape_text}, '
                         f'but got shape {array.shape}')
    if array.dtype.kind not in 'iuf':
        raise TypeError(f'{fname}: {name} must be an integer or floating-point array, '
                        f'but got dtype {array.dtype}')
    return array


def as_bbox(fname: str, name: str, x, *, kinds: str = 'iuf',
            empty_means_none: bool = False) -> numpy.ndarray:
    """Returns ``x`` as an array of boxes of shape ``(R, 4)``: the one check of the box contract.

    The box helpers, the transforms, the evaluations and the visualizations all check their
    boxes here, so a wrong box raises the same errors with the same messages everywhere.

    Args:
        fname (str): the public function that checks, named first by the error.
        name (str): the argument as the error names it (``'bbox'``, ``'gt_bboxes[3]'``).
        x: the boxes, an array (or anything :func:`numpy.asarray` takes).
        kinds (str): the dtype kinds taken: ``'iuf'`` (integer or floating point) or ``'f'``
            (floating point, for the transforms, which write new coordinates in the dtype of
            the boxes).
        empty_means_none (bool): take any empty array (such as ``[]``) as no box, as
            ChainerCV's evaluations do; it is returned as an array of shape ``(0, 4)``.

    Returns:
        ~numpy.ndarray: ``x`` as an array of shape ``(R, 4)``, in its own dtype, on its own
        device.

    Raises:
        ShapeError: ``x`` does not have shape ``(R, 4)`` (a :class:`ValueError`).
        TypeError: ``x`` is not an array, or not of one of the dtype ``kinds``.
    """
    array = as_array(fname, name, x)
    if empty_means_none and array.size == 0:
        return backend.get_array_module(array).zeros(
            (0, 4), array.dtype if array.dtype.kind in kinds else numpy.float32)
    if array.ndim != 2 or array.shape[1] != 4:
        raise ShapeError(f'{fname}: {name} must have shape (R, 4), but got shape {array.shape}')
    if array.dtype.kind not in kinds:
        what = 'a floating-point' if kinds == 'f' else 'an integer or floating-point'
        raise TypeError(f'{fname}: {name} must be {what} array, but got dtype {array.dtype}')
    return array


def as_masks(fname: str, name: str, x) -> numpy.ndarray:
    """Returns ``x`` as a boolean array of shape ``(R, H, W)``."""
    array = as_array(fname, name, x)
    if array.ndim != 3:
        raise ShapeError(f'{fname}: {name} must have shape (R, H, W), '
                         f'but got shape {array.shape}')
    if array.dtype != numpy.bool_:
        raise TypeError(f'{fname}: {name} must be a boolean array, but got dtype {array.dtype}')
    return array


def real_number(fname: str, name: str, x) -> float:
    """Returns ``x`` as a float; raises for non-numbers, booleans and NaN."""
    if isinstance(x, (bool, numpy.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f'{fname}: {name} must be a real number, but got {type(x).__name__}')
    if numpy.isnan(x):
        raise ValueError(f'{fname}: {name} must not be NaN')
    return float(x)


def optional_count(fname: str, name: str, x) -> int | None:
    """Returns ``x`` as an int >= 0, or None."""
    if x is None:
        return None
    if isinstance(x, (bool, numpy.bool_)) or not isinstance(x, numbers.Integral):
        raise TypeError(f'{fname}: {name} must be None or an int, but got {type(x).__name__}')
    if x < 0:
        raise ValueError(f'{fname}: {name} must be at least 0, but got {x}')
    return int(x)


def positive_int(fname: str, name: str, x) -> int:
    """Returns ``x`` as an int > 0."""
    if isinstance(x, (bool, numpy.bool_)) or not isinstance(x, numbers.Integral):
        raise TypeError(f'{fname}: {name} must be an int, but got {type(x).__name__}')
    if x <= 0:
        raise ValueError(f'{fname}: {name} must be positive, but got {x}')
    return int(x)

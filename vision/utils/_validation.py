"""Argument checks for the box and mask helpers, with messages that name what went wrong.

Each check names the function, the argument, what was expected and what was given, e.g.
``bbox_iou: bbox_a must have shape (R, 4), but got shape (3, 5)``.
"""

from __future__ import annotations

import numbers

import numpy


class ShapeError(ValueError, IndexError):
    """An array of the wrong shape.

    A :class:`ValueError`, and also an :class:`IndexError`, which is what ChainerCV raised for
    the same mistakes, so that code written against ChainerCV keeps catching it.
    """


def as_array(fname: str, name: str, x) -> numpy.ndarray:
    """Returns ``x`` as a NumPy array; raises TypeError for objects that are not arrays."""
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


def as_bbox(fname: str, name: str, x) -> numpy.ndarray:
    """Returns ``x`` as a real array of shape ``(R, 4)``."""
    array = as_real_array(fname, name, x, 2, '(R, 4)')
    if array.shape[1] != 4:
        raise ShapeError(f'{fname}: {name} must have shape (R, 4), but got shape {array.shape}')
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

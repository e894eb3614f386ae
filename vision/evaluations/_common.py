"""Helpers shared by the evaluations: reading per-image inputs with checks, and NaN means.

The evaluation functions take parallel iterables with one entry per image (arrays, lists, or
lazily produced values). :func:`zip_images` walks them together and fails if one ends early;
the ``as_*`` functions turn one image's entry into an array of the documented shape, or raise
with a message such as ``eval_instance_segmentation_voc: pred_masks[3] must have shape
(R, H, W), but got shape (5,)``. Boxes are checked by the box contract's one check,
:func:`vision.utils._validation.as_bbox`.
"""

from __future__ import annotations

import itertools
import numbers
from collections.abc import Iterable, Iterator

import numpy

_END = object()


def zip_images(fname: str, named: dict[str, Iterable | None]) -> Iterator[tuple]:
    """Yields one tuple per image from parallel iterables; a None iterable yields None.

    Raises:
        ValueError: If the iterables (those that are not None) have different lengths.
    """
    names = list(named)
    iterators = [itertools.repeat(None) if value is None else iter(value)
                 for value in named.values()]
    n_given = sum(value is not None for value in named.values())
    for index in itertools.count():
        items = tuple(next(iterator, _END) for iterator in iterators)
        ended = [name for name, item in zip(names, items) if item is _END]
        if len(ended) == n_given:
            return
        if ended:
            going = [name for name, item in zip(names, items)
                     if item is not _END and named[name] is not None]
            raise ValueError(f'{fname}: every input must have one entry per image, but '
                             f'{", ".join(ended)} ended after {index} images while '
                             f'{", ".join(going)} went on')
        yield items


def _as_array(fname: str, name: str, index: int, x) -> numpy.ndarray:
    try:
        array = numpy.asarray(x)
    except (TypeError, ValueError) as error:
        raise TypeError(f'{fname}: {name}[{index}] must be an array, but got '
                        f'{type(x).__name__} ({error})') from None
    if array.dtype == object:
        raise TypeError(f'{fname}: {name}[{index}] must be a numeric array, but got dtype '
                        f'object')
    return array


def _as_vector(fname: str, name: str, index: int, x, kinds: str, kind_text: str
               ) -> numpy.ndarray:
    """A 1-dimensional array of one of the dtype ``kinds``; an empty array of any dtype."""
    array = _as_array(fname, name, index, x)
    if array.size == 0:
        return array.reshape(0)
    if array.ndim != 1:
        raise ValueError(f'{fname}: {name}[{index}] must have shape (R,), but got shape '
                         f'{array.shape}')
    if array.dtype.kind not in kinds:
        raise TypeError(f'{fname}: {name}[{index}] must be {kind_text} array, but got dtype '
                        f'{array.dtype}')
    return array


def as_masks(fname: str, name: str, index: int, x) -> numpy.ndarray:
    """Returns one image's masks as a boolean array of shape ``(R, H, W)``."""
    array = _as_array(fname, name, index, x)
    if array.ndim != 3:
        raise ValueError(f'{fname}: {name}[{index}] must have shape (R, H, W), but got shape '
                         f'{array.shape}')
    if array.dtype != numpy.bool_:
        raise TypeError(f'{fname}: {name}[{index}] must be a boolean array, but got dtype '
                        f'{array.dtype}')
    return array


def as_points(fname: str, name: str, index: int, x, n_point: int) -> numpy.ndarray:
    """Returns one image's points as a real array of shape ``(R, n_point, 2)``, in their own
    dtype; an empty array of shape ``(0, ...)`` or ``(0,)`` means no object."""
    array = _as_array(fname, name, index, x)
    if array.size == 0 and (array.ndim != 3 or len(array) == 0):
        return numpy.zeros((0, n_point, 2),
                           array.dtype if array.dtype.kind in 'iuf' else numpy.float32)
    if array.ndim != 3 or array.shape[1:] != (n_point, 2):
        raise ValueError(f'{fname}: {name}[{index}] must have shape (R, {n_point}, 2), but got '
                         f'shape {array.shape}')
    if array.dtype.kind not in 'iuf':
        raise TypeError(f'{fname}: {name}[{index}] must be an integer or floating-point '
                        f'array, but got dtype {array.dtype}')
    return array


def as_point_flags(fname: str, name: str, index: int, x, n_point: int) -> numpy.ndarray:
    """Returns one image's per-point flags (nonzero: set) as a boolean array of shape
    ``(R, n_point)``; an empty array of shape ``(0, ...)`` or ``(0,)`` means no object."""
    array = _as_array(fname, name, index, x)
    if array.size == 0 and (array.ndim != 2 or len(array) == 0):
        return numpy.zeros((0, n_point), bool)
    if array.ndim != 2 or array.shape[1] != n_point:
        raise ValueError(f'{fname}: {name}[{index}] must have shape (R, {n_point}), but got '
                         f'shape {array.shape}')
    if array.dtype.kind not in 'biu':
        raise TypeError(f'{fname}: {name}[{index}] must be a boolean or integer array, but '
                        f'got dtype {array.dtype}')
    return array.astype(bool)


def as_labels(fname: str, name: str, index: int, x) -> numpy.ndarray:
    """Returns one image's labels as a non-negative int64 array of shape ``(R,)``; a
    floating-point array is taken when it holds whole numbers (``numpy.ones(R)``), as ChainerCV
    takes it."""
    array = _as_vector(fname, name, index, x, 'iuf', 'an integer')
    if array.dtype.kind == 'f' and not numpy.all(numpy.mod(array, 1) == 0):
        raise TypeError(f'{fname}: {name}[{index}] must be an integer array, but got dtype '
                        f'{array.dtype} holding values that are not whole numbers')
    array = array.astype(numpy.int64)
    if array.size and array.min() < 0:
        raise ValueError(f'{fname}: {name}[{index}] must hold labels of at least 0, but got '
                         f'{array.min()}')
    return array


def as_scores(fname: str, name: str, index: int, x) -> numpy.ndarray:
    """Returns one image's scores as a float64 array of shape ``(R,)`` without NaN."""
    array = _as_vector(fname, name, index, x, 'iuf', 'a real')
    array = array.astype(numpy.float64)
    if numpy.isnan(array).any():
        raise ValueError(f'{fname}: {name}[{index}] must not contain NaN')
    return array


def as_areas(fname: str, name: str, index: int, x) -> numpy.ndarray:
    """Returns one image's object areas as a float64 array of shape ``(R,)`` (given as
    ``(R,)``, or as a column ``(R, 1)``, which ChainerCV also takes)."""
    if numpy.ndim(x) == 2 and numpy.shape(x)[1] == 1:
        x = numpy.asarray(x)[:, 0]
    return _as_vector(fname, name, index, x, 'iuf', 'a real').astype(numpy.float64)


def as_flags(fname: str, name: str, index: int, x) -> numpy.ndarray:
    """Returns one image's flags (difficult, crowded) as a boolean array of shape ``(R,)``; a
    floating-point array is taken when it holds only 0 and 1 (``numpy.zeros(R)``), as ChainerCV
    takes it."""
    array = _as_vector(fname, name, index, x, 'biuf', 'a boolean')
    if array.dtype.kind == 'f' and not numpy.all((array == 0) | (array == 1)):
        raise TypeError(f'{fname}: {name}[{index}] must be a boolean array, but got dtype '
                        f'{array.dtype} holding values other than 0 and 1')
    return array.astype(bool)


def check_lengths(fname: str, index: int, named: dict[str, numpy.ndarray | None]) -> None:
    """Checks that one image's per-object arrays (None skipped) have one length."""
    given = [(name, len(array)) for name, array in named.items() if array is not None]
    for name, length in given[1:]:
        if length != given[0][1]:
            raise ValueError(f'{fname}: {name}[{index}] must have one entry per object of '
                             f'{given[0][0]}[{index}] ({given[0][1]}), but has {length}')


def shortest(arrays: list[numpy.ndarray | None]) -> list[numpy.ndarray | None]:
    """Cuts the arrays (None kept) to the length of the shortest, as ``zip`` pairs them."""
    length = min(len(array) for array in arrays if array is not None)
    return [None if array is None else array[:length] for array in arrays]


def as_threshold(fname: str, name: str, x) -> float:
    """Returns ``x`` as a Python float; raises for non-numbers, booleans and NaN."""
    if isinstance(x, (bool, numpy.bool_)) or not isinstance(x, numbers.Real):
        raise TypeError(f'{fname}: {name} must be a real number, but got {type(x).__name__}')
    if numpy.isnan(x):
        raise ValueError(f'{fname}: {name} must not be NaN')
    return float(x)


def nanmean(x) -> float:
    """:func:`numpy.nanmean` of ``x`` as a float, NaN without a warning if all values are."""
    x = numpy.asarray(x, dtype=numpy.float64)
    if numpy.isnan(x).all():
        return float('nan')
    return float(numpy.nanmean(x))

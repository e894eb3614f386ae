"""Argument checks that name the function, the argument, the expected and the actual value.

Every public function checks its inputs with these before computing, so that bad input fails
at the call with a message such as ``relu: x must be a floating-point array, but got dtype
int32`` rather than deep inside NumPy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy

_KIND_NAMES = {'f': 'floating-point', 'i': 'signed integer', 'u': 'unsigned integer',
               'b': 'boolean', 'c': 'complex'}


def _kinds_text(kinds: str) -> str:
    return ' or '.join(_KIND_NAMES[k] for k in kinds)


def expect_dtype_kind(fname: str, name: str, x, kinds: str = 'f') -> None:
    """Checks that ``x.dtype.kind`` is one of ``kinds`` (e.g. ``'f'``, ``'iu'``)."""
    if x.dtype.kind not in kinds:
        raise TypeError(f'{fname}: {name} must be a {_kinds_text(kinds)} array, '
                        f'but got dtype {x.dtype}')


def expect_dtype(fname: str, name: str, x, dtype) -> None:
    """Checks that ``x.dtype`` equals ``dtype``."""
    if x.dtype != numpy.dtype(dtype):
        raise TypeError(f'{fname}: {name} must have dtype {numpy.dtype(dtype)}, '
                        f'but got dtype {x.dtype}')


def expect_same_dtype(fname: str, names: Sequence[str], arrays: Sequence) -> None:
    """Checks that all arrays (None entries skipped) have one dtype."""
    pairs = [(n, a) for n, a in zip(names, arrays) if a is not None]
    for name, a in pairs[1:]:
        if a.dtype != pairs[0][1].dtype:
            raise TypeError(f'{fname}: {name} must have the dtype of {pairs[0][0]} '
                            f'({pairs[0][1].dtype}), but got dtype {a.dtype}')


def expect_ndim(fname: str, name: str, x, ndim: int | None = None,
                min_ndim: int | None = None) -> None:
    """Checks the number of dimensions: exactly ``ndim`` or at least ``min_ndim``."""
    if ndim is not None and x.ndim != ndim:
        raise ValueError(f'{fname}: {name} must be {ndim}-dimensional, but got shape {x.shape}')
    if min_ndim is not None and x.ndim < min_ndim:
        raise ValueError(f'{fname}: {name} must have at least {min_ndim} dimensions, '
                         f'but got shape {x.shape}')


def expect_shape(fname: str, name: str, x, shape: Sequence[int | None]) -> None:
    """Checks ``x.shape`` against ``shape``, where None matches any size."""
    if len(x.shape) != len(shape) or any(
            s is not None and s != t for s, t in zip(shape, x.shape)):
        text = '(' + ', '.join('*' if s is None else str(s) for s in shape) + \
            (',)' if len(shape) == 1 else ')')
        raise ValueError(f'{fname}: {name} must have shape {text}, but got shape {x.shape}')


def expect_same_shape(fname: str, names: Sequence[str], arrays: Sequence) -> None:
    """Checks that all arrays have one shape."""
    for name, a in zip(names[1:], arrays[1:]):
        if a.shape != arrays[0].shape:
            raise ValueError(f'{fname}: {name} must have the shape of {names[0]} '
                             f'{arrays[0].shape}, but got shape {a.shape}')


def expect_broadcastable(fname: str, names: Sequence[str], arrays: Sequence) -> tuple:
    """Checks that the shapes broadcast together and returns the broadcast shape."""
    try:
        return numpy.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError:
        shapes = ', '.join(f'{n} {a.shape}' for n, a in zip(names, arrays))
        raise ValueError(f'{fname}: the shapes of the inputs must broadcast together, '
                         f'but got {shapes}') from None


def normalize_axis(fname: str, axis: int, ndim: int, name: str = 'axis') -> int:
    """Returns ``axis`` in ``[0, ndim)``; negative values count from the end."""
    if isinstance(axis, bool) or not isinstance(axis, (int, numpy.integer)):
        raise TypeError(f'{fname}: {name} must be an int, but got {type(axis).__name__}')
    if not -ndim <= axis < ndim:
        raise ValueError(f'{fname}: {name} must be in [{-ndim}, {ndim}) for an input of '
                         f'{ndim} dimensions, but got {axis}')
    return int(axis) % ndim


def normalize_axes(fname: str, axis, ndim: int, name: str = 'axis') -> tuple[int, ...] | None:
    """Returns ``axis`` (None, an int or a sequence of ints) as a sorted tuple, or None."""
    if axis is None:
        return None
    axes = (axis,) if isinstance(axis, (int, numpy.integer)) else tuple(axis)
    normalized = tuple(normalize_axis(fname, a, ndim, name) for a in axes)
    if len(set(normalized)) != len(normalized):
        raise ValueError(f'{fname}: {name} must not repeat an axis, but got {axis}')
    return tuple(sorted(normalized))

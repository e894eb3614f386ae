"""Argument checks shared by the transforms.

Each names the function, the argument, what was expected and what was given, e.g.
``resize: img must be a 3-dimensional array (C, H, W), but got shape (24, 32)``.
"""

from __future__ import annotations

import numbers

import numpy

_KINDS = {'f': 'floating-point', 'iu': 'integer', 'fiu': 'real-valued',
          'fiub': 'real-valued or boolean'}


def check_array(fname: str, name: str, x, ndim: int, layout: str,
                kinds: str | None = None) -> None:
    """Checks that ``x`` is an ndarray of ``ndim`` dimensions and, if given, a dtype kind."""
    if not isinstance(x, numpy.ndarray):
        raise TypeError(f'{fname}: {name} must be a numpy.ndarray {layout}, '
                        f'but got {type(x).__name__}')
    if x.ndim != ndim:
        raise ValueError(f'{fname}: {name} must be a {ndim}-dimensional array {layout}, '
                         f'but got shape {x.shape}')
    if kinds is not None and x.dtype.kind not in kinds:
        raise TypeError(f'{fname}: {name} must be a {_KINDS[kinds]} array, '
                        f'but got dtype {x.dtype}')


def check_image(fname: str, img, kinds: str | None = None) -> tuple[int, int, int]:
    """Checks a ``(C, H, W)`` image and returns its shape."""
    check_array(fname, 'img', img, 3, '(C, H, W)', kinds)
    return img.shape


def check_point(fname: str, point) -> None:
    """Checks points: a floating-point ``(R, K, 2)`` array or a sequence of ``(K, 2)`` ones."""
    if isinstance(point, numpy.ndarray):
        check_array(fname, 'point', point, 3, '(R, K, 2)', 'f')
        if point.shape[2] != 2:
            raise ValueError(f'{fname}: point must have shape (R, K, 2), '
                             f'but got shape {point.shape}')
        return
    if isinstance(point, (str, bytes)) or not hasattr(point, '__iter__'):
        raise TypeError(f'{fname}: point must be a numpy.ndarray (R, K, 2) or a list of '
                        f'(K, 2) arrays, but got {type(point).__name__}')
    for i, pnt in enumerate(point):
        check_array(fname, f'point[{i}]', pnt, 2, '(K, 2)', 'f')
        if pnt.shape[1] != 2:
            raise ValueError(f'{fname}: point[{i}] must have shape (K, 2), '
                             f'but got shape {pnt.shape}')


def check_size(fname: str, name: str, size, allow_zero: bool = False) -> tuple[int, int]:
    """Returns ``size`` as ``(height, width)``, checking two positive (or non-negative) ints."""
    try:
        pair = tuple(size)
    except TypeError:
        pair = None
    least = 0 if allow_zero else 1
    if (pair is None or len(pair) != 2
            or not all(isinstance(s, numbers.Integral) and not isinstance(s, bool)
                       and s >= least for s in pair)):
        what = 'non-negative' if allow_zero else 'positive'
        raise ValueError(f'{fname}: {name} must be a pair of {what} ints (height, width), '
                         f'but got {size!r}')
    return int(pair[0]), int(pair[1])


def check_extent(fname: str, name: str, size) -> tuple[float, float]:
    """Returns ``size``, the extent (height, width) of an image, checking two positive reals."""
    try:
        pair = tuple(size)
    except TypeError:
        pair = None
    if (pair is None or len(pair) != 2
            or not all(isinstance(s, numbers.Real) and not isinstance(s, bool) and s > 0
                       for s in pair)):
        raise ValueError(f'{fname}: {name} must be a pair of positive numbers (height, width), '
                         f'but got {size!r}')
    return pair[0], pair[1]


def check_offsets(fname: str, y_offset, x_offset) -> None:
    """Checks that both offsets are real numbers."""
    for name, value in (('y_offset', y_offset), ('x_offset', x_offset)):
        if not isinstance(value, numbers.Real) or isinstance(value, bool):
            raise TypeError(f'{fname}: {name} must be a real number, but got {value!r}')


def check_crop_size(fname: str, size, shape: tuple[int, int]) -> tuple[int, int]:
    """Returns the crop ``size`` after checking it fits in an image of ``shape`` (H, W)."""
    H, W = check_size(fname, 'size', size, allow_zero=True)
    if H > shape[0] or W > shape[1]:
        raise ValueError(f'{fname}: size must not exceed the image size {tuple(shape)}, '
                         f'but got {(H, W)}')
    return H, W


def check_fill(fname: str, fill, n_channel: int) -> numpy.ndarray:
    """Returns ``fill`` (a scalar, or one value per channel) as a ``(C or 1, 1, 1)`` array."""
    values = numpy.asarray(fill)
    if values.dtype.kind not in 'fiub' or values.size not in (1, n_channel):
        what = ('a number' if n_channel == 1
                else f'a number or {n_channel} numbers (one per channel)')
        raise ValueError(f'{fname}: fill must be {what}, but got {fill!r}')
    return values.reshape(-1, 1, 1)


def check_rng(fname: str, rng) -> None:
    """Checks that ``rng`` is a :class:`numpy.random.Generator` or None."""
    if rng is not None and not isinstance(rng, numpy.random.Generator):
        raise TypeError(f'{fname}: rng must be a numpy.random.Generator or None, '
                        f'but got {type(rng).__name__}')

"""Padding the edges of each axis, as :func:`numpy.pad` does."""

from __future__ import annotations

import itertools

import numpy

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.variable import Variable

#: Modes whose padded values are copies of input elements.
_COPY_MODES = ('edge', 'reflect', 'symmetric', 'wrap')
_MODES = ('constant',) + _COPY_MODES


def _source_indexes(n: int, before: int, after: int, mode: str):
    """For each position of an axis of length ``n`` once padded, the input index whose value it
    holds, or -1 where it holds a constant."""
    index = numpy.arange(n)
    if mode == 'constant':
        return numpy.pad(index, (before, after), mode='constant', constant_values=-1)
    return numpy.pad(index, (before, after), mode=mode)


def _unpad_axis(g, axis: int, n: int, before: int, after: int, mode: str):
    """The adjoint of padding one axis: each padded position adds its gradient to its source."""
    def at(i):
        return (slice(None),) * axis + (i,)

    gx = g[at(slice(before, before + n))]
    if mode == 'constant' or before + after == 0:
        return gx
    gx = gx.copy()
    sources = _source_indexes(n, before, after, mode)
    for j in itertools.chain(range(before), range(before + n, before + n + after)):
        gx[at(int(sources[j]))] += g[at(j)]
    return gx


class Pad(FunctionNode):

    def __init__(self, pad_width: tuple[tuple[int, int], ...], mode: str, keywords: dict):
        self.pad_width = pad_width
        self.mode = mode
        self.keywords = keywords

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        # numpy.pad refuses the empty pad_width of a 0-dimensional array; 0 means the same.
        return xp.pad(x, self.pad_width or 0, mode=self.mode, **self.keywords),

    def backward(self, indexes, grad_outputs):
        return PadGrad(self.pad_width, self.mode, self.inputs[0].shape).apply(grad_outputs)


class PadGrad(FunctionNode):
    """The gradient of :class:`Pad`: the transpose of the linear part of padding."""

    def __init__(self, pad_width: tuple[tuple[int, int], ...], mode: str,
                 in_shape: tuple[int, ...]):
        self.pad_width = pad_width
        self.mode = mode
        self.in_shape = in_shape

    def forward(self, inputs):
        g, = inputs
        for axis, (n, (before, after)) in enumerate(zip(self.in_shape, self.pad_width)):
            g = _unpad_axis(g, axis, n, before, after, self.mode)
        return g,

    def backward(self, indexes, grad_outputs):
        keywords = {'constant_values': 0} if self.mode == 'constant' else {}
        return Pad(self.pad_width, self.mode, keywords).apply(grad_outputs)


def _normalize_pad_width(pad_width, ndim: int) -> tuple[tuple[int, int], ...]:
    widths = numpy.asarray(pad_width)
    if widths.dtype.kind not in 'iu':
        raise TypeError(f'pad: pad_width must be integers, but got {pad_width!r}')
    try:
        widths = numpy.broadcast_to(widths, (ndim, 2))
    except ValueError:
        raise ValueError(f'pad: pad_width must be an int, a (before, after) pair or one pair per '
                         f'axis of x ({ndim} axes), but got {pad_width!r}') from None
    if (widths < 0).any():
        raise ValueError(f'pad: pad_width must be non-negative, but got {pad_width!r}')
    return tuple((int(b), int(a)) for b, a in widths)


def _check_keywords(mode: str, keywords: dict, ndim: int) -> dict:
    if mode == 'constant':
        allowed = {'constant_values'}
    elif mode in ('reflect', 'symmetric'):
        allowed = {'reflect_type'}
    else:
        allowed = set()
    unknown = sorted(set(keywords) - allowed)
    if unknown:
        raise TypeError(f"pad: unexpected keyword arguments {unknown} for mode '{mode}'")
    if keywords.get('reflect_type', 'even') != 'even':
        raise ValueError(f"pad: reflect_type must be 'even' (the only one supported), "
                         f"but got {keywords['reflect_type']!r}")
    if 'constant_values' not in keywords:
        return {}
    values = numpy.asarray(backend.to_cpu(keywords['constant_values']))
    try:
        values = numpy.broadcast_to(values, (ndim, 2))
    except ValueError:
        raise ValueError(f'pad: constant_values must be a scalar, a (before, after) pair or one '
                         f'pair per axis of x ({ndim} axes), but got '
                         f'{keywords["constant_values"]!r}') from None
    return {'constant_values': values.tolist() if ndim else 0}


def pad(x, pad_width, mode, **keywords) -> Variable:
    """Pads the edges of each axis of ``x``, as :func:`numpy.pad` does.

    Args:
        x (Variable or array): the input, a floating-point array of shape
            ``(s_1, ..., s_N)``.
        pad_width (int or array-like): the number of values added before and after each axis:
            an int for all, a ``(before, after)`` pair for all, or one pair per axis.
        mode (str): how the added values are filled: ``'constant'`` (with
            ``constant_values``, 0 by default), ``'edge'``, ``'reflect'``, ``'symmetric'`` or
            ``'wrap'``.
        constant_values (scalar or array-like): in ``'constant'`` mode, the values added before
            and after each axis, broadcast as ``pad_width`` is.
        reflect_type (str): in ``'reflect'`` and ``'symmetric'`` modes, only ``'even'``.

    Returns:
        Variable: of shape ``(s_1 + before_1 + after_1, ..., s_N + before_N + after_N)`` and the
        dtype of ``x``. The gradient of each added value goes to the input element it copies
        (none for constants).
    """
    x_array = float_input('pad', 'x', x)
    if mode not in _MODES:
        raise ValueError(f'pad: mode must be one of {", ".join(map(repr, _MODES))}, '
                         f'but got {mode!r}')
    pad_width = _normalize_pad_width(pad_width, x_array.ndim)
    keywords = _check_keywords(mode, keywords, x_array.ndim)
    if mode != 'constant':
        for n, (before, after) in zip(x_array.shape, pad_width):
            if n == 0 and before + after:
                raise ValueError(f"pad: an empty axis of x (shape {x_array.shape}) cannot be "
                                 f"padded in mode '{mode}'")
    return Pad(pad_width, mode, keywords).apply((x,))[0]

"""Padding sequences of different lengths into one array."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, is_int
from framework.utils import type_check
from framework.variable import Variable


class PadSequence(FunctionNode):

    def __init__(self, length: int, padding):
        self.length = length
        self.padding = padding

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        first = inputs[0]
        y = xp.full((len(inputs), self.length) + first.shape[1:], self.padding, first.dtype)
        for i, x in enumerate(inputs):
            y[i, :x.shape[0]] = x
        return y,

    def backward(self, indexes, grad_outputs):
        lengths = tuple(x.shape[0] for x in self.inputs)
        gxs = PadSequenceGrad(lengths).apply(grad_outputs)
        return tuple(gxs[i] for i in indexes)


class PadSequenceGrad(FunctionNode):
    """The gradient of :class:`PadSequence`: the unpadded part of each row of the gradient."""

    def __init__(self, lengths: tuple[int, ...]):
        self.lengths = lengths

    def forward(self, inputs):
        g, = inputs
        return tuple(g[i, :n] for i, n in enumerate(self.lengths))

    def backward(self, indexes, grad_outputs):
        g = self.inputs[0]
        xp = backend.get_array_module(*(gg for gg in grad_outputs if gg is not None))
        ggs = [gg if gg is not None else xp.zeros((n,) + g.shape[2:], g.dtype)
               for gg, n in zip(grad_outputs, self.lengths)]
        return PadSequence(g.shape[1], 0).apply(ggs)


def pad_sequence(xs, length=None, padding=0) -> Variable:
    """Stacks arrays of different lengths into one, padding each to ``length``.

    Args:
        xs (list of Variable or array): ``n`` inputs of one dtype with shapes
            ``(l_i, s_2, ..., s_N)`` that differ only in their first axis.
        length (int or None): the length of the padded axis; None for the largest ``l_i``.
        padding (int or float): the value of the added elements.

    Returns:
        Variable: of shape ``(n, length, s_2, ..., s_N)`` and the dtype of the inputs;
        ``y[i, :l_i]`` is ``xs[i]``.
    """
    if not isinstance(xs, (list, tuple)) or not xs:
        raise ValueError('pad_sequence: xs must be a non-empty list of Variables or arrays, '
                         f'but got {xs!r}')
    names = [f'xs[{i}]' for i in range(len(xs))]
    arrays = [array_input('pad_sequence', name, x) for name, x in zip(names, xs)]
    type_check.expect_same_dtype('pad_sequence', names, arrays)
    for name, a in zip(names, arrays):
        type_check.expect_ndim('pad_sequence', name, a, min_ndim=1)
        if a.shape[1:] != arrays[0].shape[1:]:
            raise ValueError(f'pad_sequence: {name} must have the shape of xs[0] '
                             f'{arrays[0].shape} after its first axis, but got shape {a.shape}')
    longest = max(a.shape[0] for a in arrays)
    if length is None:
        length = longest
    elif not is_int(length):
        raise TypeError(f'pad_sequence: length must be an int or None, '
                        f'but got {type(length).__name__}')
    elif length < longest:
        raise ValueError(f'pad_sequence: length must be at least the length of the longest '
                         f'input ({longest}), but got {length}')
    return PadSequence(int(length), padding).apply(tuple(xs))[0]

"""The linear operations over pooling windows, in adjoint pairs.

:class:`AveragePooling` (a sum over each window, divided) and :class:`Unpooling` (each value
spread over its window, divided) are each other's adjoints, as are :class:`MaxPoolingWithIndexes`
(the element of each window at a given index) and :class:`Upsampling` (each value put at the
given index of its window). Each one's backward is the other one, so these operations can be
differentiated any number of times; max pooling's backward is an :class:`Upsampling`.
"""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions.pooling._windows import Windows
from framework.variable import Variable


def _divisor(windows: Windows, divisor, like):
    """``divisor`` as a number or an array like ``like`` (None: the count of non-padding
    elements of each window)."""
    if divisor is None:
        return windows.geometry.valid_counts(backend.get_array_module(like), like.dtype)
    return divisor


class AveragePooling(FunctionNode):
    """The sum of each window divided by ``divisor`` (a number, or None for the number of
    non-padding elements of the window)."""

    def __init__(self, windows: Windows, divisor):
        self.windows = windows
        self.divisor = divisor

    def forward(self, inputs):
        x, = inputs
        return self.windows.reduce_sum(x, _divisor(self.windows, self.divisor, x)),

    def backward(self, indexes, grad_outputs):
        return Unpooling(self.windows, self.divisor).apply(grad_outputs)


class Unpooling(FunctionNode):
    """Each value divided by ``divisor`` and added to all the elements of its window."""

    def __init__(self, windows: Windows, divisor=1):
        self.windows = windows
        self.divisor = divisor

    def forward(self, inputs):
        x, = inputs
        g = x if self.divisor == 1 else x / _divisor(self.windows, self.divisor, x)
        return self.windows.spread(g),

    def backward(self, indexes, grad_outputs):
        return AveragePooling(self.windows, self.divisor).apply(grad_outputs)


class MaxPoolingWithIndexes(FunctionNode):
    """``(x, indexes) -> y``: the element of each window of ``x`` at the window index given by
    ``indexes`` (an integer array of the output's shape, which gets no gradient)."""

    def __init__(self, windows: Windows):
        self.windows = windows

    def forward(self, inputs):
        self.retain_inputs((1,))
        x, indexes = inputs
        return self.windows.gather(x, indexes),

    def backward(self, indexes, grad_outputs):
        window_indexes, = self.get_retained_inputs()
        return upsample(self.windows, grad_outputs[0], window_indexes), None


class Upsampling(FunctionNode):
    """``(x, indexes) -> y``: each value of ``x`` added to the element of its window at the
    window index ``indexes`` (an integer array of the shape of ``x``, which gets no
    gradient). The indices are an input, not an attribute, so that a traced graph reads them
    from the max pooling that computed them."""

    def __init__(self, windows: Windows):
        self.windows = windows

    def forward(self, inputs):
        self.retain_inputs((1,))
        x, indexes = inputs
        return self.windows.scatter(x, indexes),

    def backward(self, indexes, grad_outputs):
        window_indexes, = self.get_retained_inputs()
        return MaxPoolingWithIndexes(self.windows).apply(
            (grad_outputs[0], window_indexes))[0], None


def upsample(windows: Windows, x, indexes) -> Variable:
    """:class:`Upsampling` of ``x`` (a Variable or array) by ``indexes`` (a Variable or
    array)."""
    return Upsampling(windows).apply((x, indexes))[0]

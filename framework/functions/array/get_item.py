"""Indexing: basic slicing and advanced (integer- and boolean-array) indexing."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.variable import Variable


class GetItem(FunctionNode):

    def __init__(self, slices: tuple):
        self.slices = slices

    def forward(self, inputs):
        x, = inputs
        return x[self.slices],

    def backward(self, indexes, grad_outputs):
        return GetItemGrad(self.slices, self.inputs[0].shape).apply(grad_outputs)


class GetItemGrad(FunctionNode):
    """The gradient of :class:`GetItem`: scatters ``gy`` into zeros of the input's shape,
    adding up the entries that an index selects more than once."""

    def __init__(self, slices: tuple, in_shape: tuple[int, ...]):
        self.slices = slices
        self.in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.in_shape, gy.dtype)
        if _is_basic(self.slices):
            gx[self.slices] = gy  # a view selects each element once: no need to add up
        else:
            xp.add.at(gx, self.slices, gy)
        return gx,

    def backward(self, indexes, grad_outputs):
        return GetItem(self.slices).apply(grad_outputs)


def _is_basic(slices: tuple) -> bool:
    """Whether the index is basic (ints, slices, Ellipsis, None): a view, no repeats."""
    return all(s is None or s is Ellipsis or isinstance(s, (int, slice)) and not isinstance(
        s, bool) for s in slices)


def _normalize_slices(slices, device) -> tuple:
    """Returns ``slices`` as a tuple, as Chainer reads them, with index arrays on ``device``.

    A list of Python ints (or bools) is one index array; any other list is a tuple of indices.
    """
    if isinstance(slices, list):
        slices = (slices,) if all(isinstance(s, int) for s in slices) else tuple(slices)
    elif not isinstance(slices, tuple):
        slices = (slices,)
    return tuple(device.send(s) if backend.is_array(s) else s for s in slices)


def get_item(x, slices) -> Variable:
    """Selects elements of ``x`` as NumPy's indexing ``x[slices]`` does.

    The gradient of an element selected several times (by repeated entries of an index array)
    is the sum of the gradients of its copies.

    Args:
        x (Variable or array): the input, of any shape and dtype.
        slices (int, slice, Ellipsis, None, integer array-like, boolean array-like or a tuple
            of them): the index. A list of ints is one integer index array; another list is
            read as a tuple. Index arrays are moved to the device of ``x``.

    Returns:
        Variable: ``x[slices]``, of the dtype of ``x``; a view of ``x`` for basic indexing.

    Raises:
        IndexError: when NumPy (or CuPy) rejects the index for the shape of ``x``.
    """
    device = backend.get_device_from_array(array_input('get_item', 'x', x))
    return GetItem(_normalize_slices(slices, device)).apply((x,))[0]

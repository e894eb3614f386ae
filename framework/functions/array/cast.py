"""Casting to another dtype."""

from __future__ import annotations

import numpy

from framework.config import config
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.variable import Variable, as_variable


class Cast(FunctionNode):

    def __init__(self, dtype: numpy.dtype):
        self.dtype = dtype

    def forward(self, inputs):
        x, = inputs
        return x.astype(self.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        g, = grad_outputs
        in_dtype = self.inputs[0].dtype
        if in_dtype.kind != 'f':
            return None,
        return Cast(in_dtype).apply((g,)) if g.dtype != in_dtype else (g,)


def cast(x, typ) -> Variable:
    """Casts ``x`` to the dtype ``typ``.

    Args:
        x (Variable or array): the input, of any dtype; only floating-point inputs receive a
            gradient.
        typ (str or dtype): the dtype to cast to (``numpy.float16``, ``'float32'``, ``'f'``...).

    Returns:
        Variable: of the shape of ``x`` and dtype ``typ``, holding ``x`` itself when it already
        has that dtype. The gradient is cast back to the dtype of ``x``.
    """
    x_array = array_input('cast', 'x', x)
    try:
        dtype = numpy.dtype(typ)
    except TypeError:
        raise TypeError(f'cast: typ must be a dtype or the name of one, but got {typ!r}') from None
    if x_array.dtype == dtype and not config.enable_backprop:
        return as_variable(x)
    return Cast(dtype).apply((x,))[0]

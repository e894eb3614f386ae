"""Selecting one element of each row by an index."""

from __future__ import annotations

import numpy

from framework import backend
from framework.config import config
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input
from framework.utils import type_check
from framework.variable import Variable


def _rows(xp, t):
    return xp.arange(t.shape[0])


class SelectItem(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((1,))
        x, t = inputs
        xp = backend.get_array_module(x, t)
        return x[_rows(xp, t), t],

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return None,
        t, = self.get_retained_inputs()
        x = self.inputs[0]
        gx, = Assign(x.shape, x.dtype).apply((grad_outputs[0], t))
        return tuple(gx if i == 0 else None for i in indexes)


class Assign(FunctionNode):
    """The gradient of :class:`SelectItem`: puts each value at its row's index in zeros."""

    def __init__(self, shape: tuple[int, int], dtype: numpy.dtype):
        self.shape = shape
        self.dtype = dtype

    def forward(self, inputs):
        self.retain_inputs((1,))
        g, t = inputs
        xp = backend.get_array_module(g, t)
        gx = xp.zeros(self.shape, self.dtype)
        gx[_rows(xp, t), t] = g
        return gx,

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return None,
        t, = self.get_retained_inputs()
        gg, = SelectItem().apply((grad_outputs[0], t))
        return tuple(gg if i == 0 else None for i in indexes)


def select_item(x, t) -> Variable:
    """Selects the element ``t[i]`` of each row ``i`` of ``x``: ``y[i] = x[i, t[i]]``.

    Args:
        x (Variable or array): of shape ``(N, K)``.
        t (Variable or array): signed integer indices of shape ``(N,)``, each in ``[0, K)``
            (checked when ``config.debug`` is on, as in Chainer). Not differentiated.

    Returns:
        Variable: of shape ``(N,)`` and the dtype of ``x``.
    """
    x_array = array_input('select_item', 'x', x)
    t_array = array_input('select_item', 't', t)
    type_check.expect_dtype_kind('select_item', 't', t_array, 'i')
    type_check.expect_ndim('select_item', 'x', x_array, 2)
    type_check.expect_shape('select_item', 't', t_array, (x_array.shape[0],))
    if config.debug:
        host_t = backend.to_cpu(t_array)
        if ((host_t < 0) | (host_t >= x_array.shape[1])).any():
            raise ValueError(f'select_item: each t must be in [0, {x_array.shape[1]}), '
                             f'but got {host_t}')
    return SelectItem().apply((x, t))[0]

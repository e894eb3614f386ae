"""Pieces shared by the element-wise math functions: input checks, a base for functions computed
by one ufunc, and a base for functions that pick one of two inputs (maximum, minimum)."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.math.sum import sum_to
from framework.utils import type_check


def check_pair(fname: str, x1, x2, names: tuple[str, str] = ('x1', 'x2')) -> None:
    """Checks two floating-point inputs of one dtype whose shapes broadcast together."""
    arrays = (float_input(fname, names[0], x1), float_input(fname, names[1], x2))
    type_check.expect_same_dtype(fname, names, arrays)
    type_check.expect_broadcastable(fname, names, arrays)


class UnaryUfunc(FunctionNode):
    """A function computed element-wise by one ufunc of the array module.

    Subclasses set :attr:`ufunc` and :attr:`retain` and implement ``backward``.
    """

    #: The name of the ufunc (``'sin'`` for ``xp.sin``); also the label.
    ufunc = ''
    #: What backward reads: ``'input'`` or ``'output'``.
    retain = 'input'

    @property
    def label(self):
        return self.ufunc

    def forward(self, inputs):
        x, = inputs
        if self.retain == 'input':
            self.retain_inputs((0,))
        else:
            self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        return getattr(xp, self.ufunc)(x),


class Select(FunctionNode):
    """Picks, element by element, one of two broadcast inputs with a ufunc.

    The gradient goes to the input picked; on ties, to the first input. Subclasses set
    :attr:`ufunc` and :attr:`first_wins`.
    """

    #: The name of the picking ufunc (``'maximum'``); also the label.
    ufunc = ''
    #: The name of the comparison ufunc that is true where the first input is picked.
    first_wins = ''

    @property
    def label(self):
        return self.ufunc

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        return getattr(xp, self.ufunc)(*inputs),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        gy, = grad_outputs
        xp = backend.get_array_module(x1.array)
        first = getattr(xp, self.first_wins)(x1.array, x2.array)
        ret = []
        if 0 in indexes:
            ret.append(sum_to(gy * first.astype(gy.dtype), self.inputs[0].shape))
        if 1 in indexes:
            second = xp.logical_not(first)
            ret.append(sum_to(gy * second.astype(gy.dtype), self.inputs[1].shape))
        return tuple(ret)

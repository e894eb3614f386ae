"""The remainder of division, with the sign of the dividend (C's ``fmod``)."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions.math._elementwise import check_pair
from framework.functions.math.sum import sum_to
from framework.variable import Variable


class Fmod(FunctionNode):

    @property
    def label(self):
        return 'fmod'

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        return xp.fmod(*inputs),

    def backward(self, indexes, grad_outputs):
        x, divisor = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(sum_to(gy, self.inputs[0].shape))
        if 1 in indexes:
            xp = backend.get_array_module(x.array)
            quotient = xp.fix(x.array / divisor.array)
            ret.append(sum_to(gy * -quotient, self.inputs[1].shape))
        return tuple(ret)


def fmod(x, divisor) -> Variable:
    """Element-wise remainder of ``x / divisor``, with the sign of ``x``.

    ``fmod(x, d) = x - fix(x / d) * d``, where ``fix`` rounds toward zero. Its gradients are
    1 for ``x`` and ``-fix(x / d)`` for ``d``; the quotient is taken as a constant, so the
    second derivatives are 0 (as in Chainer). The inputs broadcast together.

    Args:
        x (Variable or array): the floating-point dividend.
        divisor (Variable or array): the divisor, of the dtype of ``x``.

    Returns:
        Variable: of the broadcast shape and the dtype of the inputs.
    """
    check_pair('fmod', x, divisor, ('x', 'divisor'))
    return Fmod().apply((x, divisor))[0]

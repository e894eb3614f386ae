"""Sigmoid cross entropy: binary cross entropy of logits."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.activation.sigmoid import sigmoid, sigmoid_array
from framework.functions.array.broadcast import broadcast_to
from framework.functions.loss._utils import check_reduce, label_input
from framework.functions.math.sum import sum as _sum
from framework.utils import type_check
from framework.variable import Variable

_IGNORE_LABEL = -1


class SigmoidCrossEntropy(FunctionNode):

    def __init__(self, normalize: bool, reduce: str):
        self.normalize = normalize
        self.reduce = reduce
        self.count = None

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        valid = t != _IGNORE_LABEL
        # log(1 + exp(-|x|)) keeps exp from overflowing; t - (x >= 0) moves the rest to x
        loss = -(valid * (x * (t - (x >= 0)) - xp.log1p(xp.exp(-abs(x)))))
        if self.reduce == 'no':
            return loss.astype(x.dtype),
        self.count = xp.maximum(valid.sum(), 1) if self.normalize else max(len(x), 1)
        return xp.divide(loss.sum(), self.count).astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return (None,) * len(indexes)
        x, t = self.get_retained_inputs()
        grad = SigmoidCrossEntropyGrad(self.reduce, self.count, t.array)
        gx, = grad.apply((x, grad_outputs[0]))
        return tuple(gx if i == 0 else None for i in indexes)


class SigmoidCrossEntropyGrad(FunctionNode):
    """``(x, gy) -> gy * (sigmoid(x) - t)`` over the valid labels, divided by the count for
    ``reduce='mean'``."""

    def __init__(self, reduce: str, count, t):
        self.reduce = reduce
        self.count = count
        self.t = t

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(x)
        y = sigmoid_array(x)
        gx = gy * (self.t != _IGNORE_LABEL) * (y - self.t)
        if self.reduce == 'mean':
            gx = xp.divide(gx, self.count)
        return gx.astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        xp = backend.get_array_module(x.array)
        weight = (self.t != _IGNORE_LABEL).astype(x.dtype)
        if self.reduce == 'mean':
            weight = weight * (1 / xp.asarray(self.count)).astype(x.dtype)
        ggx = ggx * weight
        y = sigmoid(x)
        ret = []
        if 0 in indexes:
            ret.append(y * (1 - y) * broadcast_to(gy, y.shape) * ggx)
        if 1 in indexes:
            ggy = (y - self.t.astype(x.dtype)) * ggx
            ret.append(_sum(ggy) if self.reduce == 'mean' else ggy)
        return tuple(ret)


def sigmoid_cross_entropy(x, t, normalize: bool = True, reduce: str = 'mean') -> Variable:
    """Cross entropy of the sigmoid of logits against binary labels.

    .. math:: -\\left(t \\log \\sigma(x) + (1 - t) \\log(1 - \\sigma(x))\\right)

    computed stably element-wise; elements whose label is -1 are left out (their loss is 0).

    Args:
        x (Variable or array): the logits, a floating-point array of any shape.
        t (Variable or array): the labels, a signed integer array of ``x``'s shape with values
            0, 1, or -1 for an element to leave out.
        normalize (bool): for ``reduce='mean'``, divide the summed loss by the number of labels
            that are not -1 if True, by the batch size ``len(x)`` if False (at least 1 either
            way, so the loss is 0 when every label is -1).
        reduce (str): ``'mean'`` for the normalized sum, ``'no'`` for the element-wise losses.

    Returns:
        Variable: of ``x``'s dtype; 0-dimensional for ``reduce='mean'``, of ``x``'s shape for
        ``reduce='no'``. Differentiable (twice) with respect to ``x`` only.
    """
    check_reduce('sigmoid_cross_entropy', reduce, ('mean', 'no'))
    x_array = float_input('sigmoid_cross_entropy', 'x', x)
    t_array = label_input('sigmoid_cross_entropy', 't', t)
    type_check.expect_same_shape('sigmoid_cross_entropy', ('x', 't'), (x_array, t_array))
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]

"""Multi-class classification accuracy."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.functions.loss._utils import label_input
from framework.variable import Variable


class Accuracy(FunctionNode):
    """Has no gradient: its backward gives None to every input."""

    def __init__(self, ignore_label: int | None):
        self.ignore_label = ignore_label

    def forward(self, inputs):
        y, t = inputs
        correct = y.argmax(axis=1).reshape(t.shape) == t
        if self.ignore_label is None:
            return correct.mean(dtype=y.dtype),
        xp = backend.get_array_module(y)
        valid = t != self.ignore_label
        count = (correct & valid).sum()
        total = valid.sum()
        accuracy = xp.where(total == 0, 0.0, count / xp.maximum(total, 1))
        return accuracy.astype(y.dtype),

    def backward(self, indexes, grad_outputs):
        return (None,) * len(indexes)


def _check_label_shape(y, t):
    shape = y.shape
    expected = shape[:1] + shape[2:t.ndim + 1]
    if y.ndim < 2 or t.shape != expected or any(
            s != 1 for s in shape[t.ndim + 1:]):
        raise ValueError(
            'accuracy: y must have shape (N, C) + t.shape[1:] followed by axes of length 1, '
            f'for t of shape (N, ...); but got y of shape {shape} and t of shape {t.shape}')


def accuracy(y, t, ignore_label: int | None = None) -> Variable:
    """Multi-class classification accuracy of a minibatch.

    The predicted label of sample ``(i, k, ...)`` is ``argmax_j y[i, j, k, ...]`` (the first
    maximum on ties).

    Args:
        y (Variable or array): the scores, a floating-point array of shape
            ``(N, C, d_1, ..., d_m, 1, ..., 1)``.
        t (Variable or array): the true labels, a signed integer array of shape
            ``(N, d_1, ..., d_m)``.
        ignore_label (int or None): samples whose true label is this value are left out; with
            every sample left out the accuracy is 0.

    Returns:
        Variable: the fraction of correct predictions, a 0-dimensional array of ``y``'s dtype.
        It has no gradient.
    """
    y_array = float_input('accuracy', 'y', y)
    t_array = label_input('accuracy', 't', t)
    _check_label_shape(y_array, t_array)
    return Accuracy(ignore_label).apply((y, t))[0]

"""Embedding lookup: the rows of a weight matrix picked by integer ids."""

from __future__ import annotations

import numbers

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, float_input
from framework.utils import type_check
from framework.variable import Variable


def _lookup(x, W, ignore_label):
    """``W[x]``, with zero rows where ``x`` is ``ignore_label``."""
    if ignore_label is None:
        return W[x]
    xp = backend.get_array_module(W)
    mask = x == ignore_label
    return xp.where(mask[..., None], xp.zeros((), W.dtype), W[xp.where(mask, 0, x)])


class EmbedIDFunction(FunctionNode):
    """``(x, W) -> W[x]``: the rows of ``W`` for the ids ``x`` (zero for ``ignore_label``)."""

    def __init__(self, ignore_label):
        self.ignore_label = ignore_label

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, W = inputs
        self._w_shape = W.shape
        return _lookup(x, W, self.ignore_label),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return None, EmbedIDGrad(self._w_shape, self.ignore_label).apply((x, gy))[0]


class EmbedIDGrad(FunctionNode):
    """``(x, gy) -> gW``: each row of ``gy`` added to the row of ``gW`` that its id picks
    (ids equal to ``ignore_label`` add nothing)."""

    def __init__(self, w_shape, ignore_label):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, gy = inputs
        xp = backend.get_array_module(gy)
        gW = xp.zeros(self.w_shape, gy.dtype)
        ids = x.ravel()
        rows = gy.reshape(ids.size, self.w_shape[1])
        if self.ignore_label is not None:
            kept = ids != self.ignore_label
            ids, rows = ids[kept], rows[kept]
        xp.add.at(gW, ids, rows)
        return gW,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        ggW, = grad_outputs
        return None, embed_id(x, ggW, self.ignore_label)


def embed_id(x, W, ignore_label=None) -> Variable:
    """Efficient linear function for one-hot input: the rows of ``W`` picked by ``x``.

    Equivalent to ``linear(one_hot(x), W.T)`` without making the one-hot vectors. Ids outside
    ``[0, len(W))`` are not checked, as in Chainer: negative ids count from the end of ``W``.

    Args:
        x (Variable or array): the ids, a signed integer array of at least one dimension.
        W (Variable or array): the embeddings, a float array of shape ``(n_ids, n_units)``.
        ignore_label (int or None): the id whose output row is zero and which contributes no
            gradient; None for none.

    Returns:
        Variable: of shape ``x.shape + (n_units,)`` and W's dtype. ``x`` gets no gradient; the
        gradient of ``W`` can be differentiated again (double backprop).
    """
    fname = 'embed_id'
    x_array = array_input(fname, 'x', x, 'i')
    type_check.expect_ndim(fname, 'x', x_array, min_ndim=1)
    W_array = float_input(fname, 'W', W)
    type_check.expect_ndim(fname, 'W', W_array, ndim=2)
    if ignore_label is not None and (isinstance(ignore_label, bool) or
                                     not isinstance(ignore_label, numbers.Integral)):
        raise TypeError(f'{fname}: ignore_label must be an int or None, but got '
                        f'{type(ignore_label).__name__}')
    return EmbedIDFunction(ignore_label).apply((x, W))[0]

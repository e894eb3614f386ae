"""Maxout: a fully-connected layer followed by a maximum over groups of units."""

from __future__ import annotations

import numbers

from framework import backend
from framework.functions.activation.maxout import maxout
from framework.initializers import Initializer
from framework.links.connection.linear import Linear
from framework.links.link import Chain


def _as_linear_initializer(name: str, value, shape: tuple[int, ...]):
    """The initializer of a Linear parameter of ``shape[0] * shape[1]`` rows for ``value``,
    given for the Maxout shape ``shape``: arrays are reshaped, callables fill a view of that
    shape; None, scalars and Initializers are used as they are."""
    if value is None or isinstance(value, (numbers.Number, Initializer)):
        return value
    if backend.is_array(value):
        if value.ndim != len(shape):
            raise ValueError(f'Maxout: {name} must be {len(shape)}-dimensional, but got shape '
                             f'{value.shape}')
        return value.reshape((shape[0] * shape[1],) + shape[2:])

    def fill(array):
        value(array.reshape(shape))
    return fill


class Maxout(Chain):
    """A fully-connected maxout layer: ``y_i = max_j (W_ij . x + b_ij)``.

    It is a :class:`~framework.links.Linear` child ``linear`` of ``out_size * pool_size``
    units followed by :func:`~framework.functions.maxout`.

    Args:
        in_size (int): the input size.
        out_size (int): the output size.
        pool_size (int): the number of units each output is the maximum of.
        initialW: the initializer of the weight; an array has shape
            ``(out_size, pool_size, in_size)``; None for LeCunNormal.
        initial_bias: the initializer of the bias; an array has shape
            ``(out_size, pool_size)``; None for no bias.

    Attributes:
        linear (~framework.links.Linear): the affine map.
    """

    def __init__(self, in_size: int, out_size: int, pool_size: int, initialW=None,
                 initial_bias=0):
        super().__init__()
        initialW = _as_linear_initializer('initialW', initialW,
                                          (out_size, pool_size, in_size))
        nobias = initial_bias is None
        initial_bias = _as_linear_initializer('initial_bias', initial_bias,
                                              (out_size, pool_size))
        with self.init_scope():
            self.linear = Linear(in_size, out_size * pool_size, nobias=nobias,
                                 initialW=initialW, initial_bias=initial_bias)
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x):
        """Applies the layer to ``x`` of shape ``(N, in_size)``: the output has shape
        ``(N, out_size)``."""
        return maxout(self.linear(x), self.pool_size)

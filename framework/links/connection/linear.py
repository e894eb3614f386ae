"""Linear: the fully-connected layer."""

from __future__ import annotations

import math

from framework.functions.connection.linear import linear
from framework.links.connection._weights import add_bias, add_weight
from framework.links.link import Link
from framework.variable import as_array


class Linear(Link):
    """A fully-connected layer: ``y = x W^T + b``.

    Args:
        in_size (int or None): the input size; None to infer it from the first input (then
            ``Linear(out_size)`` is enough).
        out_size (int): the output size.
        nobias (bool): no bias when True.
        initialW: the initializer of ``W`` (an initializer, an array or a scalar); None for
            :class:`~framework.initializers.LeCunNormal`.
        initial_bias: the initializer of ``b``; None for zero.

    Attributes:
        W (~framework.Parameter): the weight, of shape ``(out_size, in_size)``.
        b (~framework.Parameter): the bias, of shape ``(out_size,)``, or None.
    """

    def __init__(self, in_size, out_size=None, nobias: bool = False, initialW=None,
                 initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = in_size
        self.out_size = out_size
        add_weight(self, initialW)
        if in_size is not None:
            self._initialize_params(in_size)
        add_bias(self, nobias, initial_bias, out_size)

    @classmethod
    def from_params(cls, W, b=None, nobias: bool = False) -> Linear:
        """A Linear whose parameters are copies of ``W`` (and ``b``)."""
        out_size, in_size = W.shape
        if b is not None and b.size != out_size:
            raise ValueError(f'Linear.from_params: b must have {out_size} elements (W.shape[0]),'
                             f' but got {b.size}')
        return cls(in_size, out_size, nobias, initialW=as_array(W), initial_bias=as_array(b))

    @property
    def printable_specs(self):
        yield from (('in_size', self.in_size), ('out_size', self.out_size),
                    ('nobias', self.b is None))

    def _initialize_params(self, in_size: int) -> None:
        self.W.initialize((self.out_size, in_size))

    def forward(self, x, n_batch_axes: int = 1):
        """Applies the layer.

        Args:
            x (Variable or array): the input, of shape ``(s_1, ..., s_n)``; the axes after
                the first ``n_batch_axes`` are flattened into ``in_size``.
            n_batch_axes (int): the number of batch axes.

        Returns:
            Variable: of shape ``(s_1, ..., s_{n_batch_axes}, out_size)``.
        """
        if self.W.array is None:
            self._initialize_params(math.prod(x.shape[n_batch_axes:]))
        return linear(x, self.W, self.b, n_batch_axes=n_batch_axes)

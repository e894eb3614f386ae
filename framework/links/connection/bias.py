"""Bias: adds a learnable term broadcast along given axes."""

from __future__ import annotations

from framework.functions.math.bias import bias
from framework.links.link import Link
from framework.parameter import Parameter


class Bias(Link):
    """Elementwise sum with a learnable ``b`` broadcast along the axes of the input from
    ``axis`` on (see :func:`~framework.functions.bias`).

    Args:
        axis (int): the first axis of the input that ``b`` matches.
        shape (tuple of int or None): the shape of ``b``; None for no parameter: the term is
            then the second argument of the call.

    Attributes:
        b (~framework.Parameter): the term, initialized to zero (only when ``shape`` is
            given).
    """

    def __init__(self, axis: int = 1, shape=None):
        super().__init__()
        if shape is not None:
            with self.init_scope():
                self.b = Parameter(0, shape)
        self.axis = axis

    def forward(self, *xs):
        """``bias(x, b, axis)`` for ``x`` alone, or ``bias(x, y, axis)`` when the link has no
        parameter and is called with ``(x, y)``."""
        if hasattr(self, 'b'):
            x, = xs
            return bias(x, self.b, self.axis)
        x, y = xs
        return bias(x, y, self.axis)

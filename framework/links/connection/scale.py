"""Scale: multiplies by a learnable factor broadcast along given axes, optionally adds a bias."""

from __future__ import annotations

from framework.functions.math.scale import scale
from framework.links.connection.bias import Bias
from framework.links.link import Chain
from framework.parameter import Parameter


class Scale(Chain):
    """Elementwise product with a learnable ``W`` broadcast along the axes of the input from
    ``axis`` on (see :func:`~framework.functions.scale`), then optionally a :class:`Bias`.

    Args:
        axis (int): the first axis of the input that ``W`` matches.
        W_shape (tuple of int or None): the shape of ``W``; None for no parameter: the factor
            is then the second argument of the call.
        bias_term (bool): also learn a bias (the child link ``bias``).
        bias_shape (tuple of int or None): the shape of the bias when ``W_shape`` is None
            (otherwise the bias has ``W_shape``).

    Attributes:
        W (~framework.Parameter): the factor, initialized to one (only when ``W_shape`` is
            given).
        bias (Bias): the bias link (only when ``bias_term``).
    """

    def __init__(self, axis: int = 1, W_shape=None, bias_term: bool = False, bias_shape=None):
        super().__init__()
        self.axis = axis
        if bias_term and W_shape is None and bias_shape is None:
            raise ValueError('Scale: bias_shape must be given when W_shape is None and '
                             'bias_term is True')
        with self.init_scope():
            if W_shape is not None:
                self.W = Parameter(1, W_shape)
            if bias_term:
                self.bias = Bias(axis, W_shape if W_shape is not None else bias_shape)

    def forward(self, *xs):
        """``scale(x, W, axis)`` for ``x`` alone, or ``scale(x, y, axis)`` when the link has no
        ``W`` and is called with ``(x, y)``; then the bias, if any."""
        if hasattr(self, 'W'):
            x, = xs
            z = scale(x, self.W, self.axis)
        else:
            x, y = xs
            z = scale(x, y, self.axis)
        return self.bias(z) if hasattr(self, 'bias') else z

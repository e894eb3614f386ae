"""PReLU: the parametric ReLU with learnable slopes."""

from __future__ import annotations

from framework.functions.activation.prelu import prelu
from framework.links.link import Link
from framework.parameter import Parameter


class PReLU(Link):
    """Parametric ReLU with learnable slopes (see :func:`~framework.functions.prelu`).

    Args:
        shape (tuple of int): the shape of the slopes ``W``: ``()`` for one slope shared by
            all inputs, ``(C,)`` for one per channel.
        init (float): the initial slope.

    Attributes:
        W (~framework.Parameter): the slopes.
    """

    def __init__(self, shape=(), init: float = 0.25):
        super().__init__()
        with self.init_scope():
            self.W = Parameter(init, shape)

    def forward(self, x):
        """Applies PReLU to ``x`` of shape ``(N, *W.shape, ...)``."""
        return prelu(x, self.W)

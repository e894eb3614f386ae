"""Normalize: learnable channel-wise L2 normalization (ParseNet), SSD's ``norm4``."""

from __future__ import annotations

import framework.functions as F
from framework import initializers
from framework.links.link import Link
from framework.parameter import Parameter
from framework.variable import Variable


class Normalize(Link):
    """L2-normalizes its input along the channel axis and scales each channel by a learnt
    factor (Liu, Rabinovich and Berg, "ParseNet: Looking Wider to See Better", 2016).

    ``y[:, c] = scale[c] * x[:, c] / (||x[:, :]||_2 + eps)``, the norm taken over the channels
    of each position.

    Args:
        n_channel (int): the number of channels :math:`C`.
        initial (initializer, array or float): the initial value of ``scale`` (SSD: 20).
        eps (float): added to the norm, so that a position of zeros gives zeros.

    Attributes:
        scale (~framework.Parameter): ``(C,)`` float32, the factors.
    """

    def __init__(self, n_channel: int, initial=0, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.scale = Parameter(initializers.get_initializer(initial), (n_channel,))

    def forward(self, x) -> Variable:
        """Normalizes and scales.

        Args:
            x (Variable or array): float32 ``(B, C, H, W)``.

        Returns:
            Variable: float32 ``(B, C, H, W)``.
        """
        return F.scale(F.normalize(x, eps=self.eps, axis=1), self.scale, axis=1)

"""LayerNormalization: normalization over the units of each sample."""

from __future__ import annotations

import math

from framework.functions.normalization.layer_normalization import layer_normalization
from framework.links.link import Link
from framework.parameter import Parameter


class LayerNormalization(Link):
    """Layer normalization (Ba et al., 2016; see :func:`~framework.functions.layer_normalization`).

    Args:
        size (int or None): the number of units; None to infer it from the first input.
        eps (float): added to the variance.
        initial_gamma: the initializer of ``gamma``; None for one.
        initial_beta: the initializer of ``beta``; None for zero.

    Attributes:
        gamma, beta (~framework.Parameter): the scale and the shift, of shape ``(size,)``.
    """

    def __init__(self, size=None, eps: float = 1e-6, initial_gamma=None, initial_beta=None):
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.gamma = Parameter(1 if initial_gamma is None else initial_gamma)
            self.beta = Parameter(0 if initial_beta is None else initial_beta)
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size) -> None:
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        """Normalizes ``x`` of shape ``(N, size)``."""
        if self.gamma.array is None or self.beta.array is None:
            self._initialize_params(math.prod(x.shape[1:]))
        return layer_normalization(x, self.gamma, self.beta, self.eps)

"""GroupNormalization: normalization over groups of channels of each sample."""

from __future__ import annotations

import numpy

from framework.functions.normalization.group_normalization import group_normalization
from framework.links.link import Link
from framework.links.normalization._initializers import typed_initializer
from framework.parameter import Parameter


class GroupNormalization(Link):
    """Group normalization (Wu & He, 2018; see :func:`~framework.functions.group_normalization`).

    Args:
        groups (int): the number of groups of channels.
        size (int or None): the number of channels; None to infer it from the first input.
        eps (float): added to the variance.
        initial_gamma: the initializer of ``gamma``; None for one.
        initial_beta: the initializer of ``beta``; None for zero.

    Attributes:
        gamma, beta (~framework.Parameter): the scale and the shift, of shape ``(C,)``.
    """

    def __init__(self, groups: int, size=None, eps: float = 1e-5, initial_gamma=None,
                 initial_beta=None):
        super().__init__()
        self.groups = groups
        self.eps = eps
        with self.init_scope():
            self.gamma = Parameter(typed_initializer(initial_gamma, 1, numpy.float32))
            self.beta = Parameter(typed_initializer(initial_beta, 0, numpy.float32))
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size) -> None:
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        """Normalizes ``x`` of shape ``(N, C, ...)``."""
        if self.gamma.array is None or self.beta.array is None:
            if x.ndim < 2:
                raise ValueError(f'GroupNormalization: the input must have at least 2 '
                                 f'dimensions (batch and channels), but got shape {x.shape}')
            self._initialize_params(x.shape[1])
        return group_normalization(x, self.groups, self.gamma, self.beta, self.eps)

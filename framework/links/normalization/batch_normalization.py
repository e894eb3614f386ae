"""BatchNormalization: normalization with batch statistics in training, running ones after."""

from __future__ import annotations

import numpy

from framework import initializers
from framework.config import config
from framework.functions.normalization.batch_normalization import (
    batch_normalization,
    fixed_batch_normalization,
)
from framework.links.link import Link
from framework.links.normalization._initializers import typed_initializer
from framework.parameter import Parameter


class BatchNormalization(Link):
    """Batch normalization (Ioffe & Szegedy, 2015) on the outputs of linear or convolutional
    layers.

    In training (``config.train`` True) the input is normalized with the statistics of the
    batch (:func:`~framework.functions.batch_normalization`), and the running averages
    ``avg_mean`` and ``avg_var`` are updated with ``decay``; with ``finetune=True`` they become
    the exact average over all the batches seen since :meth:`start_finetuning` (``N`` counts
    them). Otherwise the input is normalized with the running averages
    (:func:`~framework.functions.fixed_batch_normalization`).

    Args:
        size (int, tuple of int or None): the shape of the parameters (the channels); None to
            infer it from the first input and ``axis``.
        decay (float): the decay of the running averages.
        eps (float): added to the variance.
        dtype: the dtype of the parameters and statistics (float32 by default).
        use_gamma (bool): learn the scale ``gamma`` (else 1).
        use_beta (bool): learn the shift ``beta`` (else 0).
        initial_gamma: the initializer of ``gamma``; None for one.
        initial_beta: the initializer of ``beta``; None for zero.
        axis (int, tuple of int or None): the axes to take statistics over; None for the
            first axis and those after the parameters' (``(0, 2, 3)`` for images).
        initial_avg_mean: the initializer of ``avg_mean``; None for zero.
        initial_avg_var: the initializer of ``avg_var``; None for one.

    Attributes:
        gamma, beta (~framework.Parameter): the scale and the shift (None when not used).
        avg_mean, avg_var (array): the running averages of the mean and of the unbiased
            variance (persistents; None until the size is known).
        N (int): the number of batches seen in fine-tuning (a persistent).
        decay, eps (float): as given.

    Raises:
        ValueError: when neither ``size`` nor ``axis`` is given.
    """

    gamma = None
    beta = None
    avg_mean = None
    avg_var = None

    def __init__(self, size=None, decay: float = 0.9, eps: float = 2e-5, dtype=None,
                 use_gamma: bool = True, use_beta: bool = True, initial_gamma=None,
                 initial_beta=None, axis=None, initial_avg_mean=None, initial_avg_var=None):
        super().__init__()
        if size is None and axis is None:
            raise ValueError('BatchNormalization: size or axis is required')
        self._dtype = numpy.dtype(numpy.float32 if dtype is None else dtype)
        self._initial_avg_mean = typed_initializer(initial_avg_mean, 0, self._dtype)
        self._initial_avg_var = typed_initializer(initial_avg_var, 1, self._dtype)
        self.decay = decay
        self.eps = eps
        self.axis = (axis,) if isinstance(axis, int) else axis
        self.N = 0
        self.register_persistent('N')
        self.add_persistent('avg_mean', None)
        self.add_persistent('avg_var', None)
        with self.init_scope():
            if use_gamma:
                self.gamma = Parameter(typed_initializer(initial_gamma, 1, self._dtype))
            if use_beta:
                self.beta = Parameter(typed_initializer(initial_beta, 0, self._dtype))
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, shape) -> None:
        self.avg_mean = initializers.generate_array(self._initial_avg_mean, shape,
                                                    device=self.device)
        self.avg_var = initializers.generate_array(self._initial_avg_var, shape,
                                                   device=self.device)
        for param in (self.gamma, self.beta):
            if param is not None:
                param.initialize(shape)

    @property
    def printable_specs(self):
        size = None if self.avg_mean is None else self.avg_mean.shape[0]
        yield from (('size', size), ('decay', self.decay), ('eps', self.eps),
                    ('dtype', self._dtype), ('use_gamma', self.gamma is not None),
                    ('use_beta', self.beta is not None))

    def forward(self, x, *, finetune: bool = False):
        """Normalizes ``x``.

        Args:
            x (Variable or array): the input, e.g. ``(N, C, H, W)`` images for ``size=C``.
            finetune (bool): in training, accumulate the exact average of the statistics of
                the batches instead of the decayed one.

        Returns:
            Variable: of the shape and dtype of ``x``.
        """
        if self.avg_mean is None:
            self._initialize_params(tuple(d for i, d in enumerate(x.shape)
                                          if i not in self.axis))
        gamma = self.gamma
        if gamma is None:
            gamma = self.xp.ones(self.avg_mean.shape, self._dtype)
        beta = self.beta
        if beta is None:
            beta = self.xp.zeros(self.avg_mean.shape, self._dtype)
        if not config.train:
            return fixed_batch_normalization(x, gamma, beta, self.avg_mean, self.avg_var,
                                             self.eps, axis=self.axis)
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        else:
            decay = self.decay
        return batch_normalization(x, gamma, beta, eps=self.eps, running_mean=self.avg_mean,
                                   running_var=self.avg_var, decay=decay, axis=self.axis)

    def start_finetuning(self) -> None:
        """Resets the count of batches, so that fine-tuning averages the batches from now."""
        self.N = 0

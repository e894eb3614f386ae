"""MultiNodeBatchNormalization: batch normalization with the statistics of every process."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework.config import config
from framework.distributed.allreduce_sum import allreduce_sum
from framework.links.normalization.batch_normalization import BatchNormalization
from framework.variable import as_variable


class MultiNodeBatchNormalization(BatchNormalization):
    """:class:`~framework.links.BatchNormalization` over the union of the processes' batches.

    In training, the mean and the variance are those of the examples of every process (one
    all-reduce of the sums of ``x`` and ``x ** 2`` and of the example count per call), so
    ``n`` processes with batch ``b`` each normalize and learn as one process with batch
    ``n * b``; the batches may differ in size. Every process must call it in the same order.
    At test time it is :class:`~framework.links.BatchNormalization`.

    Args:
        size (int or tuple of int): the shape of the parameters (the channels).
        comm (MpiCommunicatorBase): the processes.
        decay, eps, dtype, use_gamma, use_beta, initial_gamma, initial_beta: as in
            :class:`~framework.links.BatchNormalization`.
    """

    def __init__(self, size, comm, decay: float = 0.9, eps: float = 2e-5, dtype=None,
                 use_gamma: bool = True, use_beta: bool = True, initial_gamma=None,
                 initial_beta=None):
        super().__init__(size, decay=decay, eps=eps, dtype=dtype, use_gamma=use_gamma,
                         use_beta=use_beta, initial_gamma=initial_gamma,
                         initial_beta=initial_beta)
        self.comm = comm

    def forward(self, x, *, finetune: bool = False):
        """Normalizes ``x`` with the statistics of every process's batch in training.

        Args:
            x (Variable or array): the input, ``(B, *size, ...)``.
            finetune (bool): as in :meth:`BatchNormalization.forward`.

        Returns:
            Variable: of the shape and dtype of ``x``.
        """
        if not config.train:
            return super().forward(x)
        x = as_variable(x)
        ndim = self.avg_mean.ndim
        axes = (0,) + tuple(range(1 + ndim, x.ndim))
        shape = (1,) + self.avg_mean.shape + (1,) * (x.ndim - 1 - ndim)
        n_local = numpy.prod([x.shape[axis] for axis in axes])
        local = F.concat((F.reshape(F.sum(x, axis=axes), (1, -1)),
                          F.reshape(F.sum(x * x, axis=axes), (1, -1)),
                          self.xp.full((1, self.avg_mean.size), n_local, x.dtype)), axis=0)
        sums = allreduce_sum(local, self.comm)
        n = float(sums.array[2, 0])
        mean = F.reshape(sums[0] / n, self.avg_mean.shape)
        var = F.reshape(sums[1] / n, self.avg_mean.shape) - mean * mean
        self._update_averages(mean.array, var.array, n, finetune)

        def broadcast(v):
            return F.broadcast_to(F.reshape(v, shape), x.shape)

        scale = F.rsqrt(var + self.eps)
        if self.gamma is not None:
            scale = self.gamma * scale
        y = (x - broadcast(mean)) * broadcast(scale)
        return y if self.beta is None else y + broadcast(self.beta)

    def _update_averages(self, mean, var, n: float, finetune: bool) -> None:
        if finetune:
            self.N += 1
            decay = 1.0 - 1.0 / self.N
        else:
            decay = self.decay
        unbiased = var * (n / max(n - 1.0, 1.0))
        self.avg_mean *= decay
        self.avg_mean += (1 - decay) * mean
        self.avg_var *= decay
        self.avg_var += (1 - decay) * unbiased

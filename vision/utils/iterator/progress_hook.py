"""A hook for :func:`apply_to_iterator` that prints the progress."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence


class ProgressHook:
    """Prints the number of samples processed, the speed and the time left on one line.

    Pass an instance as the ``hook`` of :func:`~vision.utils.apply_to_iterator`; each call
    rewrites the line on standard output, e.g.
    ``120 of 4952 samples, 35.20 samples/sec, ETA    0:02:17``.

    Args:
        n_total (int): The number of samples in all. If given, the time left is shown.
    """

    def __init__(self, n_total: int | None = None):
        self.n_total = n_total
        self.start = time.time()
        self.n_processed = 0

    def __call__(self, in_values: Sequence[Sequence], out_values: Sequence[Sequence],
                 rest_values: Sequence[Sequence]) -> None:
        """Counts the samples of one batch and rewrites the progress line.

        Args:
            in_values (tuple of lists): The inputs of the batch; only the length of the first
                list, the batch size, is used.
            out_values (tuple of lists): The outputs (unused).
            rest_values (tuple of lists): The other values (unused).
        """
        self.n_processed += len(in_values[0])
        fps = self.n_processed / max(time.time() - self.start, 1e-9)
        if self.n_total is not None and fps > 0:
            eta = max(int((self.n_total - self.n_processed) / fps), 0)
            line = (f'\r{self.n_processed:d} of {self.n_total:d} samples, '
                    f'{fps:.2f} samples/sec, ETA {eta // 3600:4d}:{eta // 60 % 60:02d}:'
                    f'{eta % 60:02d}')
        else:
            line = f'\r{self.n_processed:d} samples, {fps:.2f} samples/sec'
        sys.stdout.write(line)
        sys.stdout.flush()

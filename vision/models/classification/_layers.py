"""Parameter-free layers of the classifiers, as callables a PickableSequentialChain can hold
(and print, copy and pickle, unlike lambdas)."""

from __future__ import annotations

import framework.functions as F


class MaxPooling2D:
    """:func:`framework.functions.max_pooling_2d` with fixed arguments."""

    def __init__(self, ksize, stride=None, pad=0, cover_all: bool = True):
        self.ksize = ksize
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all

    def __call__(self, x):
        return F.max_pooling_2d(x, self.ksize, self.stride, self.pad, self.cover_all)

    def __repr__(self):
        return (f'MaxPooling2D(ksize={self.ksize}, stride={self.stride}, pad={self.pad}, '
                f'cover_all={self.cover_all})')


def global_average_pooling_2d(x):
    """The mean over the spatial axes: ``(B, C, H, W)`` to ``(B, C)``."""
    return F.mean(x, axis=(2, 3))

"""The maxima of pooling windows as one reduction per spatial axis, over strided slices of
the input clipped to it.

The maximum over a box is the maximum along its first axis of the maxima along the others, so
a pooling reduces one spatial axis at a time: along an axis of ``n`` elements, with kernel
size ``k``, stride ``s``, padding ``p`` and ``o`` windows, the element at offset ``j`` of window
``i`` is input element ``i * s - p + j``; the windows where it lies in the input take it from
one strided slice, the others (in the padding, which never wins) skip it. Nothing is copied
into a padded buffer, and each axis' reduction reads a smaller array than the last; no window
indices are found (the maxima alone need no backward).
"""

from __future__ import annotations

import numpy

from framework import backend


def _take(a, axis: int, index: slice):
    return a[(slice(None),) * axis + (index,)]


def _axis_max(x, axis: int, k: int, s: int, p: int, o: int):
    """The maxima along ``axis`` of ``x`` of ``o`` windows, with the padding -inf."""
    xp = backend.get_array_module(x)
    n = x.shape[axis]
    # For each offset j: the windows [begin, end) whose element j is in the input.
    spans = [(j, max(0, -(-(p - j) // s)), min(o, -(-(n + p - j) // s))) for j in range(k)]
    spans = [(j, begin, end) for j, begin, end in spans if begin < end]

    def source(j, begin, end):
        first = begin * s - p + j
        return _take(x, axis, slice(first, first + (end - begin - 1) * s + 1, s))

    whole = next((span for span in spans if span[1:] == (0, o)), None)
    if whole is None:
        shape = x.shape[:axis] + (o,) + x.shape[axis + 1:]
        acc = xp.full(shape, -numpy.inf, x.dtype)
    else:
        acc = source(*whole).copy()
        spans.remove(whole)
    for j, begin, end in spans:
        target = _take(acc, axis, slice(begin, end))
        xp.maximum(target, source(j, begin, end), out=target)
    return acc


def axis_max(x, ksize, stride, pad, out_size):
    """The maximum of each pooling window of ``x (N, C, *spatial)``; the padding is -inf.

    Args:
        x (array): the input, of any array module.
        ksize, stride, pad, out_size: one int per spatial axis: the windows' size, stride
            and padding, and their number (that of ``cover_all`` or not).

    Returns:
        array: ``(N, C, *out_size)`` of the dtype of ``x``.
    """
    y = x
    for d, (k, s, p, o) in enumerate(zip(ksize, stride, pad, out_size)):
        y = _axis_max(y, 2 + d, k, s, p, o)
    return y

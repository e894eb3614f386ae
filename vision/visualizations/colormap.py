"""The colour map of PASCAL VOC's label images."""

from __future__ import annotations

from collections.abc import Iterable

import numpy


def voc_colormap(labels: Iterable[int] | numpy.ndarray) -> numpy.ndarray:
    """Returns the colours PASCAL VOC uses for class ids.

    The bits of an id are spread over the channels from the most significant bit down: bit
    :math:`3j` goes to red, :math:`3j + 1` to green and :math:`3j + 2` to blue, each at bit
    :math:`7 - j` of its channel. Id 0 (background) is black, 1 is ``(128, 0, 0)``, 255 (VOC's
    "void") is ``(224, 224, 192)``.

    Args:
        labels (iterable of ints or ~numpy.ndarray): Non-negative class ids, of any shape
            :math:`S`.

    Returns:
        ~numpy.ndarray: Colours in RGB order with values in :math:`[0, 255]`, of shape
        :math:`S + (3,)` (:math:`(N, 3)` for :math:`N` ids) and dtype float32.
    """
    labels = labels if isinstance(labels, numpy.ndarray) else numpy.array(list(labels))
    if labels.size == 0:
        return numpy.zeros(labels.shape + (3,), dtype=numpy.float32)
    if labels.dtype.kind not in 'iu':
        raise TypeError(f'voc_colormap: labels must be integers, but got dtype {labels.dtype}')
    if (labels < 0).any():
        raise ValueError(f'voc_colormap: labels must be non-negative, but got {labels.min()}')
    bits = labels.astype(numpy.int64)
    colors = numpy.zeros(labels.shape + (3,), dtype=numpy.int64)
    for j in range(8):
        for channel in range(3):
            colors[..., channel] |= ((bits >> channel) & 1) << (7 - j)
        bits = bits >> 3
    return colors.astype(numpy.float32)

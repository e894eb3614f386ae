"""Elementwise sum with a second input broadcast along given axes (Caffe's bias)."""

from __future__ import annotations

from framework.functions.math.scale import align_to_axis
from framework.variable import Variable


def bias(x, y, axis: int = 1) -> Variable:
    """Elementwise sum of ``x`` and ``y``, ``y`` broadcast along the axes of ``x`` from
    ``axis`` on (see :func:`~framework.functions.scale`).

    Args:
        x (Variable or array): the input, of shape ``(s_0, ..., s_n)``.
        y (Variable or array): the term, of shape ``(s_axis, ..., s_{axis + m - 1})`` and
            x's dtype.
        axis (int): the first axis of ``x`` that the axes of ``y`` match.

    Returns:
        Variable: of the shape and dtype of ``x``.
    """
    return x + align_to_axis('bias', x, y, axis)

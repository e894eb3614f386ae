"""Folding a batch normalization with fixed statistics into the convolution before it.

A convolution followed by a fixed batch normalization is one convolution: with the
normalization's affine map ``y * scale + shift`` (:func:`fixed_normalization_affine`),
``conv(x, W) + b`` normalized is ``conv(x, W * scale) + (b * scale + shift)``, ``scale`` and
``shift`` taken per output channel. Eager inference (:class:`~framework.links.Conv2DBNActiv`)
and the static graph's fusion both fold with these functions.
"""

from __future__ import annotations

from framework.functions.normalization.batch_normalization import fixed_normalization_affine


def fold_batch_normalization(W, b, gamma, beta, mean, var, eps: float):
    """The filters and the bias of ``bn(conv(x, W) + b)`` as one convolution.

    Args:
        W: the filters ``(O, ...)`` of the convolution.
        b: its bias ``(O,)``, or None.
        gamma, beta, mean, var: the normalization's parameters and statistics ``(O,)``.
        eps: the normalization's epsilon.

    Returns:
        tuple: the folded filters (of ``W``'s shape) and bias ``(O,)``, both of ``W``'s dtype;
        the normalization's map is computed in the statistics' dtype.
    """
    scale, shift = fixed_normalization_affine(gamma, beta, mean, var, eps, mean.dtype)
    return fold_affine(W, b, scale, shift)


def fold_affine(W, b, scale, shift):
    """The filters and the bias of ``(conv(x, W) + b) * scale + shift`` as one convolution.

    Args:
        W: the filters ``(O, ...)`` of the convolution.
        b: its bias ``(O,)``, or None.
        scale, shift: the affine map of the output channels, ``(O,)`` each.

    Returns:
        tuple: the folded filters ``W * scale`` (of ``W``'s shape) and bias
        ``b * scale + shift`` (``shift`` when ``b`` is None), both of ``W``'s dtype.
    """
    channel_scale = scale.astype(W.dtype, copy=False).reshape((-1,) + (1,) * (W.ndim - 1))
    folded_b = shift if b is None else b * scale + shift
    return W * channel_scale, folded_b.astype(W.dtype, copy=False)

"""The smooth L1 loss of box offsets (Fast R-CNN's), and its normalised form for Faster R-CNN."""

from __future__ import annotations

import framework.functions as F
from framework import backend
from framework.variable import as_array


def smooth_l1_loss(x, t, in_weight, sigma: float):
    """The sum of the smooth L1 losses of weighted differences.

    With :math:`d = w (x - t)`, each element costs :math:`\\sigma^2 d^2 / 2` where
    :math:`|d| < 1 / \\sigma^2` and :math:`|d| - 0.5 / \\sigma^2` elsewhere: it is
    :math:`\\sigma^2` times :func:`framework.functions.huber_loss` with
    :math:`\\delta = 1 / \\sigma^2`, so its gradient is differentiable again.

    Args:
        x (Variable or array): the predictions, float, of any shape.
        t (array): the targets, of ``x``'s shape and dtype.
        in_weight (array): the weights :math:`w` of the differences, of ``x``'s shape.
        sigma (float): the sharpness; a larger one narrows the quadratic part.

    Returns:
        Variable: the summed loss, a scalar of ``x``'s dtype.
    """
    sigma2 = sigma ** 2
    diff = (x - t) * in_weight
    xp = backend.get_array_module(diff)
    zero = xp.zeros(diff.shape, dtype=diff.dtype)
    return F.sum(F.huber_loss(diff, zero, 1. / sigma2, reduce='no')) * sigma2


def fast_rcnn_loc_loss(pred_loc, gt_loc, gt_label, sigma: float):
    """The localisation loss of Faster R-CNN: the smooth L1 loss of the offsets of the
    positive samples, divided by the number of samples that are not ignored (at least 1).

    Args:
        pred_loc (Variable): ``(R, 4)`` float32, the predicted offsets.
        gt_loc (array): ``(R, 4)`` float32, the target offsets.
        gt_label (array): ``(R,)`` int32, positive (> 0) samples count; -1 are ignored.
        sigma (float): as in :func:`smooth_l1_loss`.

    Returns:
        Variable: a float32 scalar.
    """
    xp = backend.get_array_module(as_array(pred_loc), gt_loc)
    in_weight = xp.zeros_like(gt_loc)
    in_weight[gt_label > 0] = 1
    loss = smooth_l1_loss(pred_loc, gt_loc, in_weight, sigma)
    return loss / max(int(xp.sum(gt_label >= 0)), 1)

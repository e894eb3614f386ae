"""multibox_loss: SSD's localization and confidence losses, with hard negative mining."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import backend
from framework.variable import Variable, as_variable


def _hard_negative(loss, positive, k: float):
    """The negatives of highest loss, ``k`` times as many as the positives of each image."""
    xp = backend.get_array_module(loss)
    rank = xp.argsort(xp.argsort(loss * (positive - 1), axis=1), axis=1)
    return rank < (positive.sum(axis=1) * k)[:, None]


def multibox_loss(mb_locs, mb_confs, gt_mb_locs, gt_mb_labels, k: float,
                  comm=None) -> tuple[Variable, Variable]:
    """The losses of SSD (Liu et al., 2016, equations 2 and 3), ChainerCV's
    ``multibox_loss``.

    ``loc_loss`` is the Huber loss (delta 1) of the offsets of the positive default boxes
    (label > 0); ``conf_loss`` the softmax cross entropy of the positives and of the
    negatives of highest loss, ``k`` negatives per positive of each image (hard negative
    mining). Both are summed and divided by the number of positives; both are zero when
    there is no positive.

    Args:
        mb_locs (Variable or array): float ``(B, K, 4)``, the predicted offsets.
        mb_confs (Variable or array): float ``(B, K, n_class)``, the class scores,
            background (class 0) first.
        gt_mb_locs (Variable or array): float ``(B, K, 4)``, the target offsets
            (:meth:`MultiboxCoder.encode`).
        gt_mb_labels (Variable or array): int32 ``(B, K)``, the target classes, 0 for
            background.
        k (float): the negatives mined per positive (3 in the paper).
        comm: a communicator with ``allreduce_obj`` and ``size`` (ChainerMN's); when given,
            the number of positives is averaged over the processes.

    Returns:
        tuple of two Variables: ``loc_loss`` and ``conf_loss``, float32 scalars.

    Raises:
        ValueError: the shapes disagree.
    """
    mb_locs, mb_confs = as_variable(mb_locs), as_variable(mb_confs)
    gt_mb_locs = as_variable(gt_mb_locs).array
    gt_mb_labels = as_variable(gt_mb_labels).array
    B, K = gt_mb_labels.shape[:2] if gt_mb_labels.ndim == 2 else (None, None)
    if (B is None or mb_locs.shape != (B, K, 4) or gt_mb_locs.shape != (B, K, 4)
            or mb_confs.ndim != 3 or mb_confs.shape[:2] != (B, K)):
        raise ValueError(f'multibox_loss: expected mb_locs and gt_mb_locs (B, K, 4), mb_confs '
                         f'(B, K, n_class) and gt_mb_labels (B, K), but got {mb_locs.shape}, '
                         f'{gt_mb_locs.shape}, {mb_confs.shape} and {gt_mb_labels.shape}')
    xp = backend.get_array_module(gt_mb_labels)
    positive = gt_mb_labels > 0
    n_positive = float(positive.sum())
    if comm is not None:
        n_positive = comm.allreduce_obj(n_positive) / comm.size
    if n_positive == 0:
        zero = Variable(xp.zeros((), mb_locs.dtype))
        return zero, zero

    loc_loss = F.sum(F.huber_loss(mb_locs, gt_mb_locs, 1, reduce='no'), axis=2)
    loc_loss = F.sum(loc_loss * positive.astype(loc_loss.dtype)) / n_positive

    conf_loss = F.softmax_cross_entropy(F.reshape(mb_confs, (B * K, -1)),
                                        gt_mb_labels.reshape(-1), reduce='no')
    conf_loss = F.reshape(conf_loss, (B, K))
    chosen = positive | _hard_negative(conf_loss.array, positive.astype(numpy.int32), k)
    conf_loss = F.sum(conf_loss * chosen.astype(conf_loss.dtype)) / n_positive
    return loc_loss, conf_loss

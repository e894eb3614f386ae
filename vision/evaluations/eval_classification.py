"""Top-k accuracy of a classifier's scores."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy


def eval_classification(pred_scores, gt_labels, ks: Sequence[int] = (1, 5)) -> dict:
    """The fraction of the images whose true class is among the ``k`` highest scored, for each
    ``k`` (ties broken towards the lower class index, as a stable sort does).

    Args:
        pred_scores (iterable of numpy.ndarray, or numpy.ndarray): the scores of each image,
            ``(n_class,)`` floats (probabilities or logits); or all of them ``(N, n_class)``.
        gt_labels (iterable of int, or numpy.ndarray): the true class of each image,
            ``(N,)`` ints in ``[0, n_class - 1]``.
        ks (sequence of int): the ``k`` of each accuracy, positive (a ``k`` of at least
            ``n_class`` counts every image).

    Returns:
        dict: ``'top-k accuracy'`` (e.g. ``'top-1 accuracy'``) to a float in ``[0, 1]`` for
        each ``k``.
    """
    scores = _stack(pred_scores)
    labels = numpy.asarray(list(gt_labels) if not isinstance(gt_labels, numpy.ndarray)
                           else gt_labels)
    if scores.ndim != 2:
        raise ValueError(f'eval_classification: pred_scores must be (N, n_class), but got '
                         f'shape {scores.shape}')
    if labels.shape != (len(scores),) or (labels.size and labels.dtype.kind not in 'iu'):
        raise ValueError(f'eval_classification: gt_labels must be ({len(scores)},) ints (one '
                         f'per image), but got shape {labels.shape} and dtype {labels.dtype}')
    if labels.size and (labels.min() < 0 or labels.max() >= scores.shape[1]):
        raise ValueError(f'eval_classification: gt_labels must be in [0, {scores.shape[1] - 1}]'
                         f', but got values in [{labels.min()}, {labels.max()}]')
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, (int, numpy.integer)) or k < 1:
            raise ValueError(f'eval_classification: ks must be positive ints, but got {k!r}')
    ranking = numpy.argsort(-scores, axis=1, kind='stable')
    return {f'top-{k} accuracy': float((ranking[:, :k] == labels[:, None]).any(axis=1).mean())
            if len(labels) else float('nan') for k in ks}


def _stack(pred_scores: Iterable) -> numpy.ndarray:
    if isinstance(pred_scores, numpy.ndarray):
        return pred_scores
    scores = list(pred_scores)
    return numpy.stack(scores) if scores else numpy.empty((0, 0), numpy.float32)

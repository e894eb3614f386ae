"""Softmax cross entropy: the cross entropy of the softmax of scores against labels."""

from __future__ import annotations

import numpy

from framework import backend
from framework.config import config
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, float_input
from framework.functions.activation.log_softmax import LogSoftmax, log_softmax
from framework.functions.array.cast import cast
from framework.functions.array.reshape import reshape
from framework.functions.array.rollaxis import rollaxis
from framework.functions.array.select_item import select_item
from framework.functions.loss._utils import check_reduce
from framework.functions.math.sum import sum as _sum
from framework.utils import type_check
from framework.variable import Variable

_EPS = 1e-7  # keeps log(t) finite in the KL divergence of soft targets


def _reduction_dtype(dtype):
    """The dtype of the sums of a mean: float32 for float16 input, the input's otherwise."""
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def _log_softmax_array(x):
    """Log-softmax along axis 1 of an array."""
    return LogSoftmax(1).forward((x,))[0]


def _along_axis_1(w, ndim):
    """A vector of class values reshaped to broadcast along axis 1 of an ``ndim`` array."""
    return w.reshape((1, -1) + (1,) * (ndim - 2))


class SoftmaxCrossEntropy(FunctionNode):
    """Its backward is :class:`SoftmaxCrossEntropyGrad`, which cannot be differentiated."""

    def __init__(self, normalize, cache_score, class_weight, ignore_label, reduce,
                 soft_target_loss):
        self.normalize = normalize
        self.cache_score = cache_score
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce
        self.soft_target_loss = soft_target_loss
        self.score = None
        self.coeff = None

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        log_y = _log_softmax_array(x)
        if self.cache_score:
            self.score = xp.exp(log_y)
        if t.dtype.kind == 'f':
            return self._soft_target_loss(xp, x, t.astype(x.dtype, copy=False), log_y),
        valid = t != self.ignore_label
        t = xp.where(valid, t, 0)
        log_p = xp.take_along_axis(log_y, t[:, None], axis=1)[:, 0]
        if self.class_weight is not None:
            class_weight = backend.get_device_from_array(x).send(self.class_weight)
            log_p = (log_p * class_weight[t]).astype(x.dtype)
        log_p *= valid
        if self.reduce == 'no':
            return -log_p,
        dtype = _reduction_dtype(x.dtype)
        count = xp.maximum(valid.sum(), 1) if self.normalize else max(len(x), 1)
        self.coeff = xp.asarray(1. / count, dtype)
        return (log_p.sum(dtype=dtype) * -self.coeff).astype(x.dtype),

    def _soft_target_loss(self, xp, x, t, log_y):
        if self.soft_target_loss == 'kl-divergence':
            loss = (t * (xp.log(t + x.dtype.type(_EPS)) - log_y)).sum(axis=1)
        else:
            loss = -(t * log_y).sum(axis=1)
        if self.reduce == 'no':
            return loss
        self.coeff = xp.asarray(1. / max(x.size // max(x.shape[1], 1), 1), x.dtype)
        return loss.sum() * self.coeff

    def backward(self, indexes, grad_outputs):
        if 0 not in indexes:
            return (None,) * len(indexes)
        x, t = self.get_retained_inputs()
        grad = SoftmaxCrossEntropyGrad(self.class_weight, self.ignore_label, self.score,
                                       self.coeff)
        gx, = grad.apply((x, t, grad_outputs[0]))
        return tuple(gx if i == 0 else None for i in indexes)

    def release_retained(self):
        super().release_retained()
        self.score = None


class SoftmaxCrossEntropyGrad(FunctionNode):
    """``(x, t, gloss) -> gloss * (softmax(x) - target)``, weighted; not differentiable."""

    def __init__(self, class_weight, ignore_label, score, coeff):
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.score = score
        self.coeff = coeff

    def forward(self, inputs):
        x, t, gloss = inputs
        xp = backend.get_array_module(x)
        y = self.score if self.score is not None else xp.exp(_log_softmax_array(x))
        if t.dtype.kind == 'f':
            gx = y - t.astype(x.dtype, copy=False)
        else:
            valid = t != self.ignore_label
            t = xp.where(valid, t, 0)
            classes = _along_axis_1(xp.arange(x.shape[1]), x.ndim)
            gx = y - (classes == t[:, None])
            weight = valid
            if self.class_weight is not None:
                class_weight = backend.get_device_from_array(x).send(self.class_weight)
                weight = class_weight[t] * valid
            gx = gx * weight[:, None]
        scale = gloss * self.coeff if self.coeff is not None else gloss[:, None]
        return (gx * scale).astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'softmax_cross_entropy: double backprop through it needs '
            'enable_double_backprop=True in the call that built the graph')


def _double_backprop_loss(x, t, normalize, class_weight, ignore_label, reduce,
                          soft_target_loss):
    """The loss composed of differentiable functions, so that it can be differentiated twice."""
    x_array = x.array if isinstance(x, Variable) else x
    xp = backend.get_array_module(x_array)
    dtype = x_array.dtype
    log_y = log_softmax(x, axis=1)
    if t.dtype.kind == 'f':
        t = t.astype(dtype, copy=False)
        loss = -_sum(log_y * t, axis=1)
        if soft_target_loss == 'kl-divergence':
            loss = loss + (t * xp.log(t + dtype.type(_EPS))).sum(axis=1)
        if reduce == 'no':
            return loss
        return _sum(loss) * dtype.type(1. / max(t.size // max(t.shape[1], 1), 1))

    loss = -log_y
    if class_weight is not None:
        class_weight = backend.get_device_from_array(x_array).send(class_weight)
        loss = loss * _along_axis_1(class_weight.astype(dtype), x_array.ndim)
    valid = t != ignore_label
    n_classes = x_array.shape[1]
    loss = reshape(rollaxis(loss, 1, x_array.ndim), (-1, n_classes))
    loss = select_item(loss, xp.clip(t, 0, n_classes - 1).ravel())
    loss = reshape(loss, t.shape) * valid.astype(dtype)
    if reduce == 'no':
        return loss
    reduction_dtype = _reduction_dtype(dtype)
    count = xp.maximum(valid.sum(), 1) if normalize else max(len(t), 1)
    count = xp.asarray(count, reduction_dtype)
    if reduction_dtype == dtype:
        return _sum(loss / count)
    return cast(_sum(cast(loss, reduction_dtype) / count), dtype)


def _check_class_weight(class_weight):
    # ValueError throughout, and before the checks of x and t, as in Chainer
    if class_weight is None:
        return
    if not backend.is_array(class_weight):
        raise ValueError('softmax_cross_entropy: class_weight must be an array or None, '
                         f'but got {type(class_weight).__name__}')
    if class_weight.ndim != 1:
        raise ValueError('softmax_cross_entropy: class_weight must be 1-dimensional, '
                         f'but got shape {class_weight.shape}')
    if class_weight.dtype.kind != 'f':
        raise ValueError('softmax_cross_entropy: class_weight must be a floating-point array, '
                         f'but got dtype {class_weight.dtype}')


def _check_labels(x, t, ignore_label, class_weight):
    fname = 'softmax_cross_entropy'
    if t.dtype.kind == 'f':
        type_check.expect_same_shape(fname, ('x', 't'), (x, t))
        if class_weight is not None:
            raise ValueError(f'{fname}: class_weight applies to integer labels only, but t '
                             'holds soft targets (a floating-point array)')
        return
    if class_weight is not None and class_weight.shape != x.shape[1:2]:
        raise ValueError(f'{fname}: class_weight must have shape ({x.shape[1]},), one weight '
                         f'per class of x, but got shape {class_weight.shape}')
    type_check.expect_dtype_kind(fname, 't', t, 'if')
    type_check.expect_shape(fname, 't', t, x.shape[:1] + x.shape[2:])
    if config.debug:
        host_t = backend.to_cpu(t)
        if not (((0 <= host_t) & (host_t < x.shape[1])) | (host_t == ignore_label)).all():
            raise ValueError(f'{fname}: each label of t must be in [0, {x.shape[1]}) or be '
                             f'ignore_label ({ignore_label}), but got {host_t}')


def softmax_cross_entropy(x, t, normalize: bool = True, cache_score: bool = True,
                          class_weight=None, ignore_label: int = -1, reduce: str = 'mean',
                          enable_double_backprop: bool = False,
                          soft_target_loss: str = 'cross-entropy') -> Variable:
    """Cross entropy of the softmax of scores against class labels or soft targets.

    The softmax is taken along axis 1 of ``x``; for ``x`` of more than 2 dimensions each
    position ``(n, d_1, ...)`` is a sample of its own.

    Args:
        x (Variable or array): the unnormalized log probabilities, a floating-point array of
            shape ``(N, C)`` or ``(N, C, d_1, ..., d_m)``.
        t (Variable or array): either the labels, a signed integer array of shape
            ``(N, d_1, ..., d_m)`` with values in ``[0, C)`` or ``ignore_label``; or soft
            targets, a floating-point array of ``x``'s shape (cast to ``x``'s dtype) holding a
            probability distribution along axis 1 (the gradient assumes that it sums to 1, as
            Chainer's does).
        normalize (bool): for ``reduce='mean'`` with labels, divide the summed loss by the
            number of labels that are not ``ignore_label`` if True, by ``N`` if False (at least
            1 either way). The mean over soft targets is over the ``N * d_1 * ... * d_m``
            samples.
        cache_score (bool): keep the softmax from the forward pass for the backward pass
            (faster, uses more memory). Unused with ``enable_double_backprop``.
        class_weight (array or None): a floating-point array of shape ``(C,)``; the loss of a
            sample of label ``c`` is multiplied by ``class_weight[c]``. Labels only.
        ignore_label (int): the label of samples to leave out (their loss is 0).
        reduce (str): ``'mean'`` for the normalized sum, ``'no'`` for the loss of each sample.
        enable_double_backprop (bool): compose the loss of differentiable functions so that it
            can be differentiated twice. By default a faster backward is used, and
            differentiating it raises RuntimeError.
        soft_target_loss (str): for soft targets, ``'cross-entropy'`` or ``'kl-divergence'``
            (the cross entropy minus the entropy of ``t``; the gradient is the same).

    Returns:
        Variable: of ``x``'s dtype; 0-dimensional for ``reduce='mean'``, of shape
        ``(N, d_1, ..., d_m)`` for ``reduce='no'``. Differentiable with respect to ``x`` only.

    Raises:
        ValueError: for a bad ``class_weight`` (not an array, not 1-dimensional, not
            floating-point, not of shape ``(C,)``), as in Chainer.
    """
    fname = 'softmax_cross_entropy'
    if soft_target_loss not in ('cross-entropy', 'kl-divergence'):
        raise ValueError(f"{fname}: soft_target_loss must be 'cross-entropy' or "
                         f"'kl-divergence', but got {soft_target_loss!r}")
    _check_class_weight(class_weight)
    check_reduce(fname, reduce, ('mean', 'no'))
    x_array = float_input(fname, 'x', x)
    type_check.expect_ndim(fname, 'x', x_array, min_ndim=2)
    t_array = array_input(fname, 't', t)
    _check_labels(x_array, t_array, ignore_label, class_weight)
    if enable_double_backprop:
        return _double_backprop_loss(x, t_array, normalize, class_weight, ignore_label, reduce,
                                     soft_target_loss)
    func = SoftmaxCrossEntropy(normalize, cache_score, class_weight, ignore_label, reduce,
                               soft_target_loss)
    return func.apply((x, t))[0]

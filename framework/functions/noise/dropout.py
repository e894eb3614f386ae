"""Dropout: random zeroing of elements while training."""

from __future__ import annotations

from framework import backend, resources
from framework.config import config
from framework.function_node import FunctionNode
from framework.functions._inputs import float_input
from framework.utils import type_check
from framework.variable import Variable, as_variable


class Dropout(FunctionNode):
    """Multiplies the input by a mask; draws the mask when none is given."""

    def __init__(self, ratio: float, mask=None):
        self.ratio = ratio
        self.mask = mask

    def forward(self, inputs):
        x, = inputs
        if self.mask is not None:
            self.mask = self.mask.astype(x.dtype, copy=False)
        else:
            xp = backend.get_array_module(x)
            state = resources.random_state(backend.get_device_from_array(x))
            keep = state.random_sample(x.shape) >= self.ratio
            scale = x.dtype.type(1. / (1. - self.ratio))
            self.mask = xp.asarray(keep * scale, dtype=x.dtype)
        return x * self.mask,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.mask,


def dropout(x, ratio: float = .5, **kwargs) -> Variable | tuple[Variable, object]:
    """dropout(x, ratio=.5, *, mask=None, return_mask=False)

    Drops elements of ``x`` at random while training.

    When ``framework.config.train`` is True, each element is zeroed with probability ``ratio``
    and the others are scaled by ``1 / (1 - ratio)``; the mask is drawn from the device's
    random stream (:func:`framework.resources.random_state`), so :func:`framework.random.seed`
    makes it reproducible. Otherwise ``x`` is returned as it is (as a Variable).

    Args:
        x (Variable or array): a floating-point array of any shape.
        ratio (float): the probability of dropping an element, in ``[0, 1)``.
        mask (array or None): the mask to multiply ``x`` by, of ``x``'s shape and on its
            device (e.g. one returned by an earlier call), cast to ``x``'s dtype; ``ratio`` is
            then ignored.
        return_mask (bool): also return the mask used.

    Returns:
        Variable, or ``(Variable, mask)`` with ``return_mask=True``: the output, of ``x``'s
        shape and dtype, and the mask (an array of ``x``'s shape and dtype whose elements are
        0 or ``1 / (1 - ratio)``; None when not training).
    """
    mask = kwargs.pop('mask', None)
    return_mask = kwargs.pop('return_mask', False)
    if 'train' in kwargs:
        raise ValueError("dropout: the train argument is not supported anymore; use "
                         "framework.using_config('train', ...)")
    if kwargs:
        raise TypeError(f'dropout() got unexpected keyword argument(s) {", ".join(kwargs)}')
    x_array = float_input('dropout', 'x', x)
    if not 0.0 <= ratio < 1.0:
        raise ValueError(f'dropout: ratio must be in [0, 1), but got {ratio}')
    if mask is not None:
        if not backend.is_array(mask):
            raise TypeError('dropout: mask must be an array or None, '
                            f'but got {type(mask).__name__}')
        type_check.expect_shape('dropout', 'mask', mask, x_array.shape)
    if config.train:
        func = Dropout(ratio, mask)
        out = func.apply((x,))[0]
        mask = func.mask
    else:
        out = as_variable(x)
        mask = None
    if return_mask:
        return out, mask
    return out

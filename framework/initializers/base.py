"""The initializer interface and the helpers that make arrays with initializers."""

from __future__ import annotations

import numbers

import numpy

from framework import backend


class Initializer:
    """Fills an array in place.

    Args:
        dtype: the dtype of the arrays :func:`generate_array` makes with this initializer;
            None for the default (float32).
    """

    def __init__(self, dtype=None):
        self.dtype = None if dtype is None else numpy.dtype(dtype)

    def __call__(self, array) -> None:
        """Fills ``array`` (of any device) in place."""
        raise NotImplementedError(f'{type(self).__name__} does not implement __call__')

    def __repr__(self):
        fields = ', '.join(f'{k}={v!r}' for k, v in vars(self).items() if v is not None)
        return f'{type(self).__name__}({fields})'


def get_initializer(initializer) -> Initializer:
    """Returns an :class:`Initializer` for ``initializer``.

    Args:
        initializer: an Initializer or any callable filling an array; a scalar (a constant);
            an array (copied); None (LeCunNormal, Chainer's default for weights).
    """
    from framework.initializers.constant import Constant
    from framework.initializers.normal import LeCunNormal
    if initializer is None:
        return LeCunNormal()
    if isinstance(initializer, numbers.Number) and not isinstance(initializer, bool) or \
            isinstance(initializer, numpy.generic):
        return Constant(initializer)
    if backend.is_array(initializer):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError(f'get_initializer: initializer must be an Initializer, a callable, a '
                        f'scalar, an array or None, but got {type(initializer).__name__}')
    return initializer


def generate_array(initializer, shape, xp=numpy, dtype=None, device=None):
    """Makes an array of ``shape`` filled by ``initializer``.

    Args:
        initializer: a callable filling an array in place (see :func:`get_initializer`).
        shape (tuple of int): the shape.
        xp: the array module (ignored when ``device`` is given).
        dtype: the dtype; by default the initializer's, else float32.
        device: the device of the array (a Device or a device spec).

    Returns:
        The filled array.
    """
    dtype = numpy.dtype(dtype if dtype is not None else
                        getattr(initializer, 'dtype', None) or numpy.float32)
    initializer_dtype = getattr(initializer, 'dtype', None)
    if initializer_dtype is not None and initializer_dtype != dtype:
        raise ValueError(f'generate_array: dtype {dtype} differs from the dtype of the '
                         f'initializer {initializer_dtype}')
    if device is None:
        array = xp.empty(shape, dtype)
    else:
        device = backend.get_device(device)
        with device.scope():
            array = device.xp.empty(shape, dtype)
    initializer(array)
    return array

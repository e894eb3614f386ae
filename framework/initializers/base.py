"""The initializer interface and the helpers that make arrays with initializers."""

from __future__ import annotations

import math

import numpy

from framework import backend
from framework import random as framework_random


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

    def check_dtype(self, array) -> None:
        """Checks that ``array`` has this initializer's dtype (when it has one).

        Raises:
            TypeError: naming the initializer and both dtypes.
        """
        if self.dtype is not None and array.dtype != self.dtype:
            raise TypeError(f'{type(self).__name__}: the array to fill must have dtype '
                            f'{numpy.dtype(self.dtype)}, but got dtype {array.dtype}')

    def __repr__(self):
        fields = ', '.join(f'{k}={v!r}' for k, v in vars(self).items() if v is not None)
        return f'{type(self).__name__}({fields})'


def generate_array(initializer, shape, xp=numpy, dtype=None, device=None):
    """Makes an array of ``shape`` filled by ``initializer``.

    Args:
        initializer: a callable filling an array in place (see
            :func:`framework.initializers.get_initializer`).
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


def get_fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """``(fan_in, fan_out)`` of a weight of ``shape`` ``(out, in, *kernel)``: the numbers of
    inputs and outputs of one unit, counting the kernel's spatial extent.

    Raises:
        ValueError: when the shape has fewer than two axes.
    """
    if len(shape) < 2:
        raise ValueError(f'get_fans: the shape must have at least two axes, but got {shape}')
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def random_state(rng, xp):
    """The generator an initializer draws from: ``rng`` if given, else the framework's
    generator of the array module ``xp`` (see :mod:`framework.random`)."""
    return framework_random.get_random_state(xp) if rng is None else rng


def fill_random(array, rng, draw) -> None:
    """Fills ``array`` with ``draw(generator)``: with the framework's generator of the array's
    module, or with ``rng`` (then sent to the array's device)."""
    device = backend.get_device_from_array(array)
    values = draw(random_state(rng, device.xp))
    array[...] = device.send(values).astype(array.dtype, copy=False)


class FanScaledInitializer(Initializer):
    """Draws from a centred distribution of scale ``s = scale * sqrt(factor / fan)``, where
    ``fan`` is ``fan_in``, ``fan_out`` or their sum (``'fan_sum'``) for the array's shape.

    Subclasses set :attr:`factor`, :attr:`fan_option` and :meth:`distribution`.

    Args:
        scale (float): the factor of ``s``.
        dtype: see :class:`Initializer`.
        rng: a generator with NumPy's ``RandomState`` interface to draw from; by default the
            framework's generator of the array's module (:mod:`framework.random`).
    """

    factor = 1.0
    fan_option = 'fan_in'

    def __init__(self, scale: float = 1.0, dtype=None, *, rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def distribution(self, s: float) -> Initializer:
        """The initializer that draws with scale ``s``."""
        raise NotImplementedError

    def __call__(self, array) -> None:
        self.check_dtype(array)
        fan_in, fan_out = get_fans(array.shape)
        fan = {'fan_in': fan_in, 'fan_out': fan_out, 'fan_sum': fan_in + fan_out}
        self.distribution(self.scale * math.sqrt(self.factor / fan[self.fan_option]))(array)

"""Initializers drawing from normal distributions: Normal, LeCunNormal, GlorotNormal, HeNormal.

The scaled ones take the standard deviation from the fans of the array's shape (see
:func:`~framework.initializers.get_fans`): a weight of shape ``(out, in, *kernel)``.
"""

from __future__ import annotations

from framework.initializers.base import FanScaledInitializer, Initializer, fill_random


class Normal(Initializer):
    """Fills an array with draws from N(0, scale^2).

    Args:
        scale (float): the standard deviation.
        dtype: see :class:`Initializer`.
        rng: a generator with NumPy's ``RandomState`` interface to draw from; by default the
            framework's generator of the array's module (:mod:`framework.random`).
    """

    def __init__(self, scale: float = 0.05, dtype=None, *, rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def __call__(self, array) -> None:
        self.check_dtype(array)
        fill_random(array, self.rng,
                    lambda generator: generator.normal(0.0, self.scale, array.shape))


class _ScaledNormal(FanScaledInitializer):
    def distribution(self, s):
        return Normal(s, rng=self.rng)


class LeCunNormal(_ScaledNormal):
    """Normal with standard deviation ``scale * sqrt(1 / fan_in)`` (Chainer's default for
    weights; LeCun et al., 1998).

    Args:
        scale (float): the factor of the standard deviation.
        dtype: see :class:`~framework.initializers.Initializer`.
        rng: see :class:`Normal`.
    """

    factor = 1.0


class GlorotNormal(_ScaledNormal):
    """Normal with standard deviation ``scale * sqrt(2 / (fan_in + fan_out))`` (Glorot &
    Bengio, 2010).

    Args:
        scale (float): the factor of the standard deviation.
        dtype: see :class:`~framework.initializers.Initializer`.
        rng: see :class:`Normal`.
    """

    factor = 2.0
    fan_option = 'fan_sum'


class HeNormal(_ScaledNormal):
    """Normal with standard deviation ``scale * sqrt(2 / fan)`` (He et al., 2015), where
    ``fan`` is ``fan_in`` or ``fan_out``.

    Args:
        scale (float): the factor of the standard deviation.
        dtype: see :class:`~framework.initializers.Initializer`.
        fan_option (str): ``'fan_in'`` or ``'fan_out'``.
        rng: see :class:`Normal`.
    """

    factor = 2.0

    def __init__(self, scale: float = 1.0, dtype=None, fan_option: str = 'fan_in', *,
                 rng=None):
        if fan_option not in ('fan_in', 'fan_out'):
            raise ValueError(f"HeNormal: fan_option must be 'fan_in' or 'fan_out', but got "
                             f'{fan_option!r}')
        super().__init__(scale, dtype, rng=rng)
        self.fan_option = fan_option

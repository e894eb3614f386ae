"""What the weighted layers share: the lazy-input argument forms and the W and b parameters.

As in Chainer, ``W`` is made (and initialized when its shape is known) before ``b``, so that
random initializers draw in the same order.
"""

from __future__ import annotations

from framework import initializers
from framework.parameter import Parameter


def pair(value):
    """``value`` if it is a sequence, else ``(value, value)``."""
    return value if hasattr(value, '__getitem__') else (value, value)


def as_tuple(name: str, value, n: int) -> tuple:
    """``value`` repeated ``n`` times, or a sequence of ``n`` values as a tuple."""
    if not hasattr(value, '__getitem__'):
        return (value,) * n
    if len(value) != n:
        raise ValueError(f'{name}: expected {n} values (one per spatial axis), but got '
                         f'{tuple(value)}')
    return tuple(value)


def shift_lazy_arguments(in_channels, out_channels, ksize):
    """Chainer's short form ``Layer(out_channels, ksize)``: when ``ksize`` is None, the first
    two arguments are ``out_channels`` and ``ksize``, and ``in_channels`` is None (inferred
    from the first input)."""
    if ksize is None:
        return None, in_channels, out_channels
    return in_channels, out_channels, ksize


def add_weight(link, initialW) -> None:
    """Registers ``link.W``, uninitialized, filled by ``initialW`` (LeCunNormal when None)."""
    with link.init_scope():
        link.W = Parameter(initializers.get_initializer(initialW))


def add_bias(link, nobias: bool, initial_bias, shape) -> None:
    """Registers ``link.b`` of ``shape`` (None: uninitialized), filled by ``initial_bias``
    (zero when None); ``link.b`` is None when ``nobias``."""
    with link.init_scope():
        if nobias:
            link.b = None
        else:
            initial_bias = 0 if initial_bias is None else initial_bias
            link.b = Parameter(initializers.get_initializer(initial_bias), shape)


def check_groups(name: str, in_channels: int, out_channels: int, groups: int) -> None:
    """Checks that ``groups`` divides both channel counts."""
    for what, channels in (('input', in_channels), ('output', out_channels)):
        if channels % groups:
            raise ValueError(f'{name}: the number of {what} channels ({channels}) must be '
                             f'divisible by the number of groups ({groups})')

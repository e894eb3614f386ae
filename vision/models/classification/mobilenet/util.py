"""Channel arithmetic of MobileNet (as in TensorFlow's slim and torchvision)."""

from __future__ import annotations

from collections.abc import Callable


def make_divisible(v: float, divisor: int, min_value: int | None = None) -> int:
    """``v`` rounded to the nearest multiple of ``divisor`` (at least ``min_value``, default
    ``divisor``), and never more than 10% below ``v``."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


def expand_input_by_factor(n: float, divisible_by: int = 8) -> Callable[..., int]:
    """A function of ``num_inputs`` giving ``num_inputs * n`` made divisible by
    ``divisible_by``: the expansion size of an :class:`ExpandedConv2D`."""
    return lambda num_inputs, **_: make_divisible(num_inputs * n, divisible_by)

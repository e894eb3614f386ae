"""The initializers of normalization parameters and statistics."""

from __future__ import annotations

from framework import initializers


def typed_initializer(value, default, dtype):
    """The initializer of ``value`` (``default`` when None), set to produce ``dtype`` (as
    Chainer does, an initializer given by the user is changed in place)."""
    initializer = initializers.get_initializer(default if value is None else value)
    initializer.dtype = dtype
    return initializer

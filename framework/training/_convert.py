"""Calling a converter with a device, whichever style of converter it is."""

from __future__ import annotations

from collections.abc import Callable

from framework import backend
from framework.dataset.convert import Converter


def call_converter(converter: Callable, batch, device: backend.Device | None):
    """Converts ``batch`` with ``converter`` for ``device``.

    A :class:`~framework.dataset.Converter` (such as ``concat_examples``) gets the Device. Any
    other callable is an old-style converter, as Chainer calls them: ``converter(batch, None)``
    without a device, ``converter(batch, -1)`` for the CPU, ``converter(batch, n)`` for GPU
    ``n``, and the Device itself for other devices.
    """
    if isinstance(converter, Converter):
        return converter(batch, device)
    if device is None:
        return converter(batch, None)
    if isinstance(device, backend.CpuDevice):
        return converter(batch, -1)
    if isinstance(device, backend.GpuDevice):
        return converter(batch, device.device_id)
    return converter(batch, device)


def apply_to(function: Callable, in_arrays):
    """Calls ``function`` with converted arrays: spread when a tuple, as keywords when a dict,
    as the one argument otherwise."""
    if isinstance(in_arrays, tuple):
        return function(*in_arrays)
    if isinstance(in_arrays, dict):
        return function(**in_arrays)
    return function(in_arrays)

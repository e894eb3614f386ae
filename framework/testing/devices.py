"""The devices that device-aware tests run on."""

from __future__ import annotations

import functools

from framework import backend
from framework.testing.emulated_device import EmulatedDevice


@functools.cache
def _gpu_count() -> int:
    if not backend.is_cupy_available():
        return 0
    import cupy
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except cupy.cuda.runtime.CUDARuntimeError:
        return 0


def devices() -> list[backend.Device]:
    """The CPU, the emulated device and, when CuPy finds one, GPU 0."""
    found = [backend.CpuDevice(), EmulatedDevice()]
    if _gpu_count():
        found.append(backend.GpuDevice(0))
    return found

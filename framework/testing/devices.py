"""The devices that device-aware tests run on.

:func:`devices` always ends with GPU 0: a :class:`~framework.backend.GpuDevice` when CuPy finds
one, else :data:`ABSENT_GPU`, which stands in its place so that the GPU's tests are collected
everywhere and skipped with the reason where no GPU is (the pytest plugin marks every test of a
GPU ``gpu`` and skips those of :data:`ABSENT_GPU`; ``pytest -m gpu`` runs the GPU's tests alone).
"""

from __future__ import annotations

import functools

from framework import backend
from framework.testing.emulated_device import EmulatedDevice

#: Why the GPU's tests are skipped on a machine without one.
NO_GPU_REASON = "needs CuPy and a GPU (pip install -e '.[gpu]' on a machine with CUDA)"


class _AbsentGpu:
    """GPU 0 where there is none: only its name, for the ids of the tests it skips."""

    name = '@cupy:0'

    def __str__(self):
        return self.name

    def __repr__(self):
        return '<absent GPU 0>'


ABSENT_GPU = _AbsentGpu()


@functools.cache
def gpu_count() -> int:
    """How many GPUs CuPy sees (0 without CuPy or a driver)."""
    if not backend.is_cupy_available():
        return 0
    import cupy
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except cupy.cuda.runtime.CUDARuntimeError:
        return 0


def devices() -> list[backend.Device]:
    """The CPU, the emulated device and GPU 0 (:data:`ABSENT_GPU` when CuPy finds none)."""
    return [backend.CpuDevice(), EmulatedDevice(),
            backend.GpuDevice(0) if gpu_count() else ABSENT_GPU]


def is_gpu(value) -> bool:
    """Whether a test's parameter is GPU 0 (present or absent)."""
    return value is ABSENT_GPU or isinstance(value, backend.GpuDevice)

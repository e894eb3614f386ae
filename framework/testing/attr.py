"""Test attributes used by Chainer's and ChainerCV's tests: ``@attr.gpu``, ``@attr.slow``,
``@attr.mpi`` (``from framework.testing import attr``).

``@attr.gpu`` marks a test ``gpu`` (``pytest -m gpu`` selects the GPU's tests) and skips it
where CuPy finds no GPU; tests that need mpi4py are skipped where it is not installed.
"""

from __future__ import annotations

import importlib.util

import pytest

from framework.testing.devices import NO_GPU_REASON, gpu_count


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


def gpu(test):
    """Marks ``test`` ``gpu`` and skips it where there is no GPU."""
    return pytest.mark.gpu(pytest.mark.skipif(not gpu_count(), reason=NO_GPU_REASON)(test))


slow = pytest.mark.slow
mpi = pytest.mark.skipif(_missing('mpi4py'), reason='needs mpi4py')

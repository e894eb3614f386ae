"""Test attributes used by Chainer's and ChainerCV's tests: ``@attr.gpu``, ``@attr.slow``,
``@attr.mpi`` (``from framework.testing import attr``).

Tests that need CuPy or mpi4py are skipped where those are not installed.
"""

from __future__ import annotations

import importlib.util

import pytest


def _missing(module: str) -> bool:
    return importlib.util.find_spec(module) is None


gpu = pytest.mark.skipif(_missing('cupy'), reason='needs CuPy and a GPU')
slow = pytest.mark.slow
mpi = pytest.mark.skipif(_missing('mpi4py'), reason='needs mpi4py')

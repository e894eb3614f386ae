import importlib.util

import pytest

from framework.testing import attr


def test_marks():
    assert attr.slow.name == 'slow'
    assert attr.gpu.name == 'skipif'
    assert attr.gpu.args == (importlib.util.find_spec('cupy') is None,)
    assert attr.mpi.args == (importlib.util.find_spec('mpi4py') is None,)


@attr.gpu
def test_gpu_tests_run_only_with_cupy():
    pytest.importorskip('cupy')

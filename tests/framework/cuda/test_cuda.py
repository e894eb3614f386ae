import numpy

from framework import backend
from framework.cuda import is_cupy
from framework.testing.emulated_device import EmulatedDevice


def test_only_cupy_itself_is_cupy():
    assert not is_cupy(numpy)
    assert not is_cupy(EmulatedDevice().xp)
    if backend.is_cupy_available():
        import cupy
        assert is_cupy(cupy)

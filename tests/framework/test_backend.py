import pathlib
import types

import numpy
import pytest

from framework import Link, Variable, backend
from framework.testing.emulated_device import EmulatedArray, EmulatedDevice


def test_get_device_specs():
    assert backend.get_device('@numpy') == backend.CpuDevice()
    assert backend.get_device('cpu') == backend.CpuDevice()
    assert backend.get_device(-1) == backend.CpuDevice()
    assert backend.get_device(None) == backend.CpuDevice()
    assert backend.get_device(numpy) == backend.CpuDevice()
    assert backend.get_device('@emulated') == EmulatedDevice()
    device = EmulatedDevice()
    assert backend.get_device(device) is device


def test_get_device_rejects_unknown_spec():
    with pytest.raises(ValueError, match="get_device: device_spec must be .* got '@tpu'"):
        backend.get_device('@tpu')


@pytest.mark.skipif(backend.is_cupy_available(), reason='CuPy is installed')
def test_gpu_without_cupy_says_how_to_install():
    with pytest.raises(RuntimeError, match='CuPy is not installed'):
        backend.get_device('@cupy:0')
    with pytest.raises(RuntimeError, match='CuPy is not installed'):
        backend.to_gpu(numpy.zeros(3))
    with pytest.raises(RuntimeError, match='to_gpu: CuPy is not installed'):
        Link().to_gpu()


@pytest.mark.skipif(backend.is_cupy_available(), reason='CuPy is installed')
def test_the_gpu_hint_is_the_readmes_install_command():
    readme = (pathlib.Path(__file__).resolve().parents[2] / 'README.md').read_text()
    command = "pip install '.[gpu]'"
    assert command in readme
    with pytest.raises(RuntimeError) as info:
        backend.get_device('@cupy:0')
    assert command in str(info.value)


def test_get_array_module():
    x = numpy.zeros(3)
    e = EmulatedDevice().send(x)
    assert backend.get_array_module(x) is numpy
    assert backend.get_array_module() is numpy
    assert backend.get_array_module(None, 1.0, numpy.float32(1)) is numpy
    assert backend.get_array_module(e) is EmulatedDevice.xp
    assert backend.get_array_module(x, e) is EmulatedDevice.xp
    assert backend.get_array_module(Variable(e)) is EmulatedDevice.xp
    assert backend.get_array_module(Variable(x)) is numpy


def test_get_device_from_array():
    x = numpy.zeros(3)
    assert backend.get_device_from_array(x) == backend.CpuDevice()
    assert backend.get_device_from_array(Variable(x)) == backend.CpuDevice()
    assert backend.get_device_from_array(EmulatedDevice().send(x)) == EmulatedDevice()
    assert backend.get_device_from_array(None, 3) == backend.CpuDevice()


def test_to_device_round_trip_copies_values():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    e = backend.to_device('@emulated', x)
    assert isinstance(e, EmulatedArray)
    assert e.dtype == numpy.float32
    back = backend.to_cpu(e)
    assert type(back) is numpy.ndarray
    numpy.testing.assert_array_equal(back, x)
    e[0, 0] = 100
    assert x[0, 0] == 0


def test_send_keeps_arrays_already_there_and_handles_nests():
    x = numpy.zeros(2)
    assert backend.to_cpu(x) is x
    nested = {'a': [x, (x, None)], 'b': 3}
    moved = backend.to_device('@emulated', nested)
    assert isinstance(moved['a'][0], EmulatedArray)
    assert isinstance(moved['a'][1], tuple)
    assert isinstance(moved['a'][1][0], EmulatedArray)
    assert moved['a'][1][1] is None
    assert moved['b'] == 3


def test_to_device_moves_variable_in_place():
    v = Variable(numpy.ones(3), grad=numpy.ones(3))
    assert backend.to_device('@emulated', v) is v
    assert isinstance(v.array, EmulatedArray)
    assert isinstance(v.grad, EmulatedArray)
    v.to_cpu()
    assert type(v.array) is numpy.ndarray


def test_same_device_names_both_inputs():
    x = numpy.zeros(3)
    e = EmulatedDevice().send(x)
    assert backend.same_device('f', [x, None, x]) == backend.CpuDevice()
    with pytest.raises(ValueError, match='f: all inputs must be on one device, but x is on '
                                         '@numpy and y is on @emulated'):
        backend.same_device('f', [x, e], ['x', 'y'])


def test_device_equality_and_hash():
    assert EmulatedDevice() == EmulatedDevice()
    assert backend.CpuDevice() != EmulatedDevice()
    assert len({backend.CpuDevice(), backend.CpuDevice(), EmulatedDevice()}) == 2


def test_using_device_is_a_context():
    with backend.using_device('@numpy'):
        pass


def _fake_cupy(count):
    """A stand-in for CuPy that sees ``count`` GPUs (or no driver when None)."""
    class CUDARuntimeError(RuntimeError):
        pass

    def get_device_count():
        if count is None:
            raise CUDARuntimeError('cudaErrorNoDevice: no CUDA-capable device is detected')
        return count
    runtime = types.SimpleNamespace(getDeviceCount=get_device_count,
                                    CUDARuntimeError=CUDARuntimeError)
    return types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=runtime),
                                 ndarray=type('ndarray', (), {}))


@pytest.mark.parametrize('count, device_id', [(None, 0), (0, 0), (1, 1)])
def test_a_gpu_that_is_not_visible_is_named(monkeypatch, count, device_id):
    monkeypatch.setattr(backend, '_cupy', lambda: _fake_cupy(count))
    seen = count or 0
    with pytest.raises(RuntimeError, match=rf'GpuDevice: no GPU {device_id} is visible: CuPy '
                                           rf'sees {seen} GPU\(s\) \(check the NVIDIA driver'):
        backend.get_device(f'@cupy:{device_id}')

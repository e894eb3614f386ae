import itertools

import numpy
import pytest

import framework.functions as F
from framework import Variable, backend
from framework.testing import (
    FLOAT_DTYPES,
    FunctionTestCase,
    check_backward,
    check_double_backward,
    devices,
    product,
)
from framework.testing.emulated_device import EmulatedDevice

_PAIRS = list(itertools.product(devices(), devices()))
_PAIR_IDS = [f'{src}-to-{dst}' for src, dst in _PAIRS]


class TestCopyOnOneDevice(FunctionTestCase):
    params = product({'shape': [(10, 5), ()], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.copy(inputs[0], device),

    def forward_expected(self, inputs):
        return inputs[0],


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('src, dst', _PAIRS, ids=_PAIR_IDS)
def test_copy_forward(src, dst, dtype):
    x = numpy.random.uniform(-1, 1, (10, 5)).astype(dtype)
    y = F.copy(Variable(src.send(x)), dst)
    assert y.device == dst
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(backend.to_cpu(y.array), x)


@pytest.mark.parametrize('src, dst', _PAIRS, ids=_PAIR_IDS)
def test_copy_backward_sends_the_gradient_to_the_input_device(src, dst):
    x = Variable(src.send(numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)))
    gy = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
    y = F.copy(x, dst)
    y.grad = dst.send(gy)
    y.backward()
    assert x.grad_var.device == src
    numpy.testing.assert_array_equal(backend.to_cpu(x.grad), gy)


@pytest.mark.parametrize('src, dst', _PAIRS, ids=_PAIR_IDS)
def test_copy_double_backward(src, dst):
    x = Variable(src.send(numpy.random.uniform(-1, 1, (3, 2))))
    ggx = numpy.random.uniform(-1, 1, (3, 2))
    y = F.copy(x, dst)
    gy = Variable(dst.send(numpy.random.uniform(-1, 1, (3, 2))))
    y.grad_var = gy
    y.backward(enable_double_backprop=True)
    assert x.grad_var.requires_grad
    x.grad_var.grad = src.send(ggx)
    x.grad_var.backward()
    assert gy.grad_var.device == dst
    numpy.testing.assert_array_equal(backend.to_cpu(gy.grad), ggx)


@pytest.mark.parametrize('src, dst', _PAIRS, ids=_PAIR_IDS)
def test_copy_gradient_check(src, dst):
    x = src.send(numpy.random.uniform(-1, 1, (3, 2)))
    gy = dst.send(numpy.random.uniform(-1, 1, (3, 2)))
    ggx = src.send(numpy.random.uniform(-1, 1, (3, 2)))
    check_backward(lambda x: F.copy(x, dst), x, gy)
    check_double_backward(lambda x: F.copy(x, dst), x, gy, ggx)


@pytest.mark.parametrize('spec', [-1, '@numpy', 'cpu', numpy])
def test_copy_to_the_host_by_spec(spec):
    x = EmulatedDevice().send(numpy.arange(3.0))
    y = F.copy(x, spec)
    assert type(y.array) is numpy.ndarray
    numpy.testing.assert_array_equal(y.array, [0, 1, 2])


def test_copy_to_the_emulated_device_by_name():
    y = F.copy(numpy.arange(3.0), '@emulated')
    assert y.device == EmulatedDevice()


def test_copy_on_one_device_holds_a_view_of_the_input():
    x = numpy.arange(3.0)
    y = F.copy(x, -1)
    assert y.array is not x and numpy.shares_memory(y.array, x)
    numpy.testing.assert_array_equal(y.array, x)


def test_copy_rejects_an_unknown_device():
    with pytest.raises(ValueError, match="get_device: device_spec must be"):
        F.copy(numpy.zeros(3), '@nowhere')


def test_copy_rejects_x_that_is_not_an_array():
    with pytest.raises(TypeError, match='copy: x must be a Variable or an array, but got list'):
        F.copy([1.0], -1)

import numpy
import pytest

import framework.functions as F
from framework import Variable, backend, grad, no_backprop_mode
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product


class TestCast(FunctionTestCase):
    params = product({
        'shape': [(3, 4), ()],
        'dtype': FLOAT_DTYPES,
        'out_type': FLOAT_DTYPES + ('float32', 'd'),
    })
    @property
    def check_backward_options(self):
        # Casting is linear, so a large step is exact and keeps the rounding of a float16
        # output small against it.
        options = {'eps': 0.5}
        if numpy.float16 in (numpy.dtype(self.dtype), numpy.dtype(self.out_type)):
            options.update(atol=1e-2, rtol=1e-2)
        return options

    check_double_backward_options = check_backward_options

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.cast(inputs[0], self.out_type),

    def forward_expected(self, inputs):
        return inputs[0].astype(self.out_type),

    def backward_expected(self, inputs, grad_outputs):
        return grad_outputs[0].astype(self.dtype),


class TestCastFromInt(FunctionTestCase):
    params = product({'in_type': [numpy.bool_, numpy.uint8, numpy.int32, numpy.int64],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.randint(0, 2, (3, 2)).astype(self.in_type),

    def forward(self, inputs, device):
        return F.cast(inputs[0], self.dtype),

    def forward_expected(self, inputs):
        return inputs[0].astype(self.dtype),


@pytest.mark.parametrize('device', devices(), ids=str)
def test_cast_gradient_comes_back_in_the_input_dtype(device):
    x = Variable(device.send(numpy.arange(3, dtype=numpy.float16)))
    y = F.cast(x, numpy.float64)
    assert y.dtype == numpy.float64
    y.grad = device.send(numpy.full(3, 0.25))
    y.backward()
    assert x.grad.dtype == numpy.float16
    assert backend.get_device_from_array(x.grad) == device
    numpy.testing.assert_array_equal(backend.to_cpu(x.grad), [0.25] * 3)


def test_cast_of_int_input_gives_it_no_gradient():
    x = Variable(numpy.arange(3, dtype=numpy.int32))
    y = F.cast(x, numpy.float32)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    assert x.grad is None


def test_cast_to_the_same_dtype_without_backprop_returns_the_input():
    x = Variable(numpy.zeros(3, numpy.float32))
    with no_backprop_mode():
        assert F.cast(x, 'f') is x
    y = F.cast(x, 'f')
    assert y is not x and y.creator is not None


def test_cast_rejects_a_bad_type():
    with pytest.raises(TypeError, match="cast: typ must be a dtype or the name of one, but got "
                                        "'no_such_type'"):
        F.cast(numpy.zeros(3, numpy.float32), 'no_such_type')


@pytest.mark.parametrize('out_type', [numpy.bool_, numpy.uint8, numpy.int8, numpy.int64])
@pytest.mark.parametrize('in_type', [numpy.bool_, numpy.uint8, numpy.int64, numpy.float32])
def test_cast_to_non_float_types(in_type, out_type):
    x = numpy.abs(numpy.random.randn(3, 4) * 3).astype(in_type)
    y = F.cast(x, out_type)
    assert y.dtype == out_type
    numpy.testing.assert_array_equal(y.array, x.astype(out_type))


def test_cast_to_the_same_dtype_holds_the_input_array():
    x = numpy.zeros(3, numpy.float32)
    assert F.cast(x, numpy.float32).array is x


def test_cast_to_the_same_dtype_makes_a_node_per_call():
    x = Variable(numpy.ones(3, numpy.float32))
    y1 = F.cast(x, numpy.float32)
    y2 = F.cast(x, numpy.float32)
    gy1, gy2 = grad([y1 + y2], [y1, y2], [numpy.ones(3, numpy.float32)])
    numpy.testing.assert_array_equal(gy1.array, numpy.ones(3))
    numpy.testing.assert_array_equal(gy2.array, numpy.ones(3))

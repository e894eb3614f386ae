import numpy
import pytest

import framework.functions as F
from framework import Variable, backend
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product


class TestWhere(FunctionTestCase):
    params = product({
        'shapes': [((3, 2, 4),) * 3, ((), (), ()), ((4,), (3, 1, 1), (2, 1)),
                   ((2, 3), (3,), ()), ((), (2, 3), (2, 1))],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        c_shape, x_shape, y_shape = self.shapes
        return (numpy.random.uniform(-1, 1, c_shape) > 0,
                numpy.random.uniform(-1, 1, x_shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, y_shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.where(*inputs),

    def forward_expected(self, inputs):
        return numpy.where(*inputs),

    def backward_expected(self, inputs, grad_outputs):
        c, x, y = inputs
        g, = grad_outputs
        return _sum_to(numpy.where(c, g, 0), x.shape), _sum_to(numpy.where(c, 0, g), y.shape)


def _sum_to(g, shape):
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, s in enumerate(shape) if s == 1)
    return g.sum(axis=axes, keepdims=True).reshape(shape) if axes else g


@pytest.mark.parametrize('device', devices(), ids=str)
def test_where_condition_variable_gets_no_gradient(device):
    c = Variable(device.send(numpy.array([True, False])))
    x = Variable(device.send(numpy.array([1.0, 2.0], numpy.float32)))
    y = Variable(device.send(numpy.array([3.0, 4.0], numpy.float32)))
    z = F.where(c, x, y)
    numpy.testing.assert_array_equal(backend.to_cpu(z.array), [1, 4])
    z.grad = device.send(numpy.array([5.0, 6.0], numpy.float32))
    z.backward()
    assert c.grad is None
    numpy.testing.assert_array_equal(backend.to_cpu(x.grad), [5, 0])
    numpy.testing.assert_array_equal(backend.to_cpu(y.grad), [0, 6])


def test_where_rejects_non_bool_condition():
    x = numpy.zeros(2, numpy.float32)
    with pytest.raises(TypeError, match='where: condition must have dtype bool, but got dtype '
                                        'int32'):
        F.where(numpy.zeros(2, numpy.int32), x, x)


def test_where_rejects_different_dtypes():
    with pytest.raises(TypeError, match=r'where: y must have the dtype of x \(float32\)'):
        F.where(numpy.ones(2, bool), numpy.zeros(2, numpy.float32), numpy.zeros(2))


def test_where_rejects_shapes_that_do_not_broadcast():
    x = numpy.zeros(2, numpy.float32)
    with pytest.raises(ValueError, match='where: the shapes of the inputs must broadcast'):
        F.where(numpy.ones(3, bool), x, x)


def test_where_rejects_condition_on_another_device():
    from framework.testing.emulated_device import EmulatedDevice
    x = EmulatedDevice().send(numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match='where: all inputs must be on one device'):
        F.where(numpy.ones(2, bool), x, x)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_where_python_bool_condition_on_any_device(device):
    x = Variable(device.send(numpy.ones(2, numpy.float32)))
    z = F.where(True, x, 2 * x)
    assert z.device == device
    numpy.testing.assert_array_equal(backend.to_cpu(z.array), [1, 1])

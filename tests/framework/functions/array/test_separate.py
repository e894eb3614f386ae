import numpy
import pytest

import framework.functions as F
from framework import Variable, backend
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product


class TestSeparate(FunctionTestCase):
    params = product({
        'case': [((2, 3, 4), 0), ((2, 3, 4), 1), ((2, 3, 4), -1), ((3,), 0), ((1, 2), 0)],
        'dtype': FLOAT_DTYPES,
    })

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.separate(inputs[0], self.case[1])

    def forward_expected(self, inputs):
        x, axis = inputs[0], self.case[1]
        return tuple(numpy.take(x, i, axis=axis) for i in range(x.shape[axis]))

    def backward_expected(self, inputs, grad_outputs):
        return numpy.stack(grad_outputs, self.case[1]),


@pytest.mark.parametrize('device', devices(), ids=str)
def test_separate_gradient_of_unused_outputs_is_zero(device):
    x = Variable(device.send(numpy.zeros((2, 3), numpy.float32)))
    _, y, _ = F.separate(x, axis=1)
    y.grad = device.send(numpy.array([1, 2], numpy.float32))
    y.backward()
    assert backend.get_device_from_array(x.grad) == device
    numpy.testing.assert_array_equal(backend.to_cpu(x.grad), [[0, 1, 0], [0, 2, 0]])


def test_separate_default_axis_is_zero():
    ys = F.separate(numpy.arange(6, dtype=numpy.int32).reshape(2, 3))
    assert isinstance(ys, tuple) and len(ys) == 2
    numpy.testing.assert_array_equal(ys[1].array, [3, 4, 5])


def test_separate_rejects_a_scalar():
    with pytest.raises(ValueError, match=r'separate: axis must be in \[0, 0\)'):
        F.separate(numpy.zeros(()))


def test_separate_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'separate: axis must be in \[-2, 2\) .* but got 2'):
        F.separate(numpy.zeros((2, 3)), 2)

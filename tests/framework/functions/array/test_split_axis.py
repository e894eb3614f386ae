import numpy
import pytest

import framework.functions as F
from framework import Variable, backend
from framework.testing import FunctionTestCase, devices, product

_CASES = [((6, 3), 2, 0), ((2, 6), [1, 4], 1), ((6, 3), 3, 1), ((2, 6), [], -1),
          ((6,), [0, 2, 2, 6], 0), ((6,), [-2], 0), ((6,), numpy.array([1, 5]), 0), ((6,), 1, 0),
          ((2, 3, 4), (3,), -1)]


class TestSplitAxis(FunctionTestCase):
    # Moving data is exact whatever the dtype: every case in float32, two in the others.
    params = (product({'case': _CASES, 'dtype': [numpy.float32]})
              + product({'case': _CASES[:2], 'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        _, indices_or_sections, axis = self.case
        return tuple(F.split_axis(inputs[0], indices_or_sections, axis))

    def forward_expected(self, inputs):
        _, indices_or_sections, axis = self.case
        return tuple(numpy.split(inputs[0], indices_or_sections, axis))

    def backward_expected(self, inputs, grad_outputs):
        return numpy.concatenate(grad_outputs, self.case[2]),


@pytest.mark.parametrize('device', devices(), ids=str)
def test_split_axis_gradient_of_unused_pieces_is_zero(device):
    x = Variable(device.send(numpy.arange(6, dtype=numpy.float32)))
    _, y, _ = F.split_axis(x, 3, 0)
    y.grad = device.send(numpy.array([1, 2], numpy.float32))
    y.backward()
    assert backend.get_device_from_array(x.grad) == device
    numpy.testing.assert_array_equal(backend.to_cpu(x.grad), [0, 0, 1, 2, 0, 0])


def test_split_axis_force_tuple():
    x = numpy.zeros((4, 2), numpy.float32)
    ys = F.split_axis(x, 1, 0)
    assert isinstance(ys, tuple) and len(ys) == 1
    y = F.split_axis(x, 1, 0, force_tuple=False)
    assert isinstance(y, Variable) and y.shape == (4, 2)
    ys = F.split_axis(x, 2, 0, force_tuple=False)
    assert isinstance(ys, tuple) and len(ys) == 2


def test_split_axis_int_input():
    ys = F.split_axis(numpy.arange(4, dtype=numpy.int32), [1], 0)
    numpy.testing.assert_array_equal(ys[1].array, [1, 2, 3])


def test_split_axis_rejects_sections_that_do_not_divide():
    with pytest.raises(ValueError, match='split_axis: x of length 5 along axis 0 cannot be '
                                         'split into 2 equal sections'):
        F.split_axis(numpy.zeros(5), 2, 0)


def test_split_axis_rejects_zero_sections():
    with pytest.raises(ValueError, match='cannot be split into 0 equal sections'):
        F.split_axis(numpy.zeros(4), 0, 0)


@pytest.mark.parametrize('indices', [[3, 1], [5], [2, -3]])
def test_split_axis_rejects_unsorted_or_too_large_indices(indices):
    with pytest.raises(ValueError, match=r'split_axis: indices must be sorted and at most the '
                                         r'length of x along axis 0 \(4\)'):
        F.split_axis(numpy.zeros(4), indices, 0)


@pytest.mark.parametrize('indices', [1.5, [1.0], numpy.array([1.0]), numpy.zeros((1, 1), int)])
def test_split_axis_rejects_indices_of_the_wrong_type(indices):
    with pytest.raises(TypeError, match='split_axis: indices_or_sections must'):
        F.split_axis(numpy.zeros(4), indices, 0)


def test_split_axis_rejects_axis_out_of_range():
    with pytest.raises(ValueError, match=r'split_axis: axis must be in \[-1, 1\)'):
        F.split_axis(numpy.zeros(4), 2, 1)

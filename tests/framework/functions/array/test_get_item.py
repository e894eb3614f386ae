import numpy
import pytest

import framework.functions as F
from framework import Variable, backend
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product

# (slices given to get_item, the NumPy index that Chainer reads them as)
_INDEXES = [
    (1, 1),
    ((1, slice(None, 2)), (1, slice(None, 2))),
    ((Ellipsis, 1), (Ellipsis, 1)),
    ((1, None, 1, 0), (1, None, 1, 0)),
    (None, None),
    ((), ()),
    ((0, 0, 0), (0, 0, 0)),
    ((slice(None, None, -1), slice(3, 0, -2)), (slice(None, None, -1), slice(3, 0, -2))),
    (numpy.int64(-1), -1),
    ([2, 0, 2, 2], ([2, 0, 2, 2],)),
    ([], ([],)),
    ([slice(None), 1], (slice(None), 1)),
    ([[0, 3], [2, 2]], ([0, 3], [2, 2])),
    (numpy.array([[0, 3], [3, 3]]), numpy.array([[0, 3], [3, 3]])),
    ((slice(None), [2, 0, 2]), (slice(None), [2, 0, 2])),
    ((Ellipsis, numpy.array([1, 1, 0]), None), (Ellipsis, numpy.array([1, 1, 0]), None)),
    ((numpy.array([0, 0]), slice(None), numpy.array([1, 1])),
     (numpy.array([0, 0]), slice(None), numpy.array([1, 1]))),
    (numpy.array([True, False, True, True]), numpy.array([True, False, True, True])),
    ([True, False, False, True], ([True, False, False, True],)),
    ((slice(1, 3), numpy.array([[True, False], [False, True], [True, True]])),
     (slice(1, 3), numpy.array([[True, False], [False, True], [True, True]]))),
]


def _selection_gradient(shape, index, gy):
    """The gradient of x[index] by accumulating gy into the flat position of each element."""
    flat = numpy.arange(int(numpy.prod(shape))).reshape(shape)[index]
    gx = numpy.zeros(int(numpy.prod(shape)))
    for position, g in zip(numpy.ravel(flat), numpy.ravel(gy)):
        gx[position] += g
    return gx.reshape(shape)


class TestGetItem(FunctionTestCase):
    params = (product({'index': _INDEXES, 'dtype': [numpy.float32]})
              + product({'index': [_INDEXES[1], _INDEXES[9], _INDEXES[17]],
                         'dtype': [numpy.float16, numpy.float64]}))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4, 3, 2)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.get_item(inputs[0], self.index[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(inputs[0][self.index[1]]),

    def backward_expected(self, inputs, grad_outputs):
        x, = inputs
        gx = _selection_gradient(x.shape, self.index[1], grad_outputs[0])
        return gx.astype(x.dtype),


class TestGetItemOfScalar(FunctionTestCase):
    params = product({'index': [(), Ellipsis, None, (None, Ellipsis, None)],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, ()).astype(self.dtype),

    def forward(self, inputs, device):
        return F.get_item(inputs[0], self.index),

    def forward_expected(self, inputs):
        return numpy.asarray(inputs[0][self.index]),


@pytest.mark.parametrize('device', devices(), ids=str)
def test_repeated_indices_accumulate_their_gradients(device):
    x = Variable(device.send(numpy.zeros(3, numpy.float32)))
    y = x[[0, 2, 2, 2, 0]]
    y.grad = device.send(numpy.array([1, 2, 3, 4, 5], numpy.float32))
    y.backward()
    numpy.testing.assert_array_equal(backend.to_cpu(x.grad), [6, 0, 9])


@pytest.mark.parametrize('device', devices(), ids=str)
def test_index_arrays_on_the_device_of_x(device):
    x = Variable(device.send(numpy.arange(6, dtype=numpy.float32).reshape(3, 2)))
    index = device.send(numpy.array([2, 2, 0]))
    y = F.get_item(x, (index, 1))
    numpy.testing.assert_array_equal(backend.to_cpu(y.array), [5, 5, 1])
    y.grad = device.send(numpy.ones(3, numpy.float32))
    y.backward()
    numpy.testing.assert_array_equal(backend.to_cpu(x.grad), [[0, 1], [0, 0], [0, 2]])


def test_variable_getitem_is_get_item():
    x = Variable(numpy.arange(24, dtype=numpy.float32).reshape(2, 3, 4))
    numpy.testing.assert_array_equal(x[1, ..., ::2].array, x.array[1, ..., ::2])
    numpy.testing.assert_array_equal(x[[1, 0]].array, x.array[[1, 0]])


def test_get_item_int_input():
    x = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    y = F.get_item(x, (Ellipsis, 2))
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [2, 5])


def test_get_item_basic_indexing_is_a_view():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    assert numpy.shares_memory(F.get_item(x, (slice(None), 1)).array, x)


def test_get_item_rejects_an_index_out_of_range():
    with pytest.raises(IndexError):
        F.get_item(numpy.zeros((2, 3), numpy.float32), (0, 3))


def test_get_item_rejects_a_list_input():
    with pytest.raises(TypeError, match='get_item: x must be a Variable or an array'):
        F.get_item([1.0, 2.0], 0)

import numpy
import pytest

from framework import Variable, backend
from framework.testing import devices
from vision.utils import ConstantStubLink


def test_returns_the_array_whatever_the_arguments():
    array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link = ConstantStubLink(array)
    for args in ((), (numpy.zeros(4),), ('anything', 3)):
        output = link(*args)
        assert isinstance(output, Variable)
        numpy.testing.assert_array_equal(output.array, array)


def test_returns_a_tuple_for_a_tuple():
    arrays = (numpy.zeros((2, 3), numpy.float32), numpy.ones(2, numpy.int32))
    outputs = ConstantStubLink(arrays)(numpy.zeros(1))
    assert isinstance(outputs, tuple) and len(outputs) == 2
    for output, array in zip(outputs, arrays):
        assert isinstance(output, Variable)
        assert output.dtype == array.dtype
        numpy.testing.assert_array_equal(output.array, array)


def test_a_tuple_of_one_stays_a_tuple():
    outputs = ConstantStubLink((numpy.zeros(3),))()
    assert isinstance(outputs, tuple) and len(outputs) == 1


@pytest.mark.parametrize('device', devices(), ids=str)
def test_outputs_follow_the_link(device):
    link = ConstantStubLink((numpy.zeros(3, numpy.float32), numpy.ones(2, numpy.float32)))
    link.to_device(device)
    for output in link():
        assert backend.get_device_from_array(output.array) == device
    link.to_cpu()
    assert all(isinstance(output.array, numpy.ndarray) for output in link())


@pytest.mark.parametrize('outputs, match', [
    ([numpy.zeros(3)], 'got a list$'),
    (1.0, 'got a float$'),
    ((numpy.zeros(3), 'x'), 'got a str at position 1 of the tuple'),
])
def test_rejects_what_is_not_an_array(outputs, match):
    with pytest.raises(ValueError, match=match):
        ConstantStubLink(outputs)

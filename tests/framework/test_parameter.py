import copy
import pickle

import numpy
import pytest

import framework.functions as F
from framework import Parameter, Variable, backend, initializers
from framework.testing import devices
from framework.testing.emulated_device import EmulatedArray


def test_uninitialized_by_default_then_nan():
    p = Parameter()
    assert not p.is_initialized and p.array is None
    assert p.dtype == numpy.float32
    p.initialize((2, 3))
    assert p.shape == (2, 3) and p.dtype == numpy.float32
    assert numpy.isnan(p.array).all()
    assert p.grad is None


@pytest.mark.parametrize('shape', [3, (2, 3), ()])
def test_scalar_initializer_with_shape(shape):
    p = Parameter(2.5, shape)
    expected_shape = (shape,) if isinstance(shape, int) else shape
    numpy.testing.assert_array_equal(p.array, numpy.full(expected_shape, 2.5, numpy.float32))


def test_array_is_the_data_without_shape():
    a = numpy.arange(6, dtype=numpy.float64).reshape(2, 3)
    p = Parameter(a, name='W')
    assert p.array is a and p.dtype == numpy.float64 and p.name == 'W'


def test_array_initializer_with_shape_is_copied_in_float32():
    a = numpy.arange(3, dtype=numpy.float64)
    p = Parameter(a, (2, 3))
    assert p.dtype == numpy.float32
    numpy.testing.assert_array_equal(p.array, [[0, 1, 2], [0, 1, 2]])


def test_initializer_dtype_decides_the_dtype():
    p = Parameter(initializers.Normal(dtype=numpy.float16))
    assert p.dtype == numpy.float16
    p.initialize(4)
    assert p.array.dtype == numpy.float16


def test_bad_initializer():
    with pytest.raises(TypeError, match='initializer'):
        Parameter('zeros')


def test_is_a_trainable_variable():
    p = Parameter(numpy.array([1., 2.], numpy.float32))
    F.sum(p * p).backward()
    numpy.testing.assert_array_equal(p.grad, [2., 4.])


def test_zerograd_of_uninitialized_applies_on_initialize():
    p = Parameter(initializers.One())
    p.zerograd()
    assert p.grad is None
    p.initialize((2,))
    numpy.testing.assert_array_equal(p.grad, [0., 0.])
    p.cleargrad()
    p.zerograd()
    p.cleargrad()
    assert p.grad is None


@pytest.mark.parametrize('device', devices(), ids=str)
def test_to_device_before_and_after_initialization(device):
    p = Parameter(initializers.Constant(1.0))
    p.to_device(device)
    assert p.device == device
    p.initialize((2,))
    assert p.device == device
    q = Parameter(numpy.ones(2, numpy.float32))
    q.grad = numpy.zeros(2, numpy.float32)
    q.to_device(device)
    assert q.device == device and q.grad_var.device == device


def test_update_uses_the_rule():
    calls = []

    class Rule:
        def update(self, param):
            calls.append(param)

    p = Parameter(0.0, (1,))
    p.update()
    p.update_rule = Rule()
    p.update()
    assert calls == [p]


def test_shallow_copy_shares_arrays_but_is_its_own_leaf():
    p = Parameter(numpy.ones(2, numpy.float32), name='W')
    q = copy.copy(p)
    assert q.array is p.array and q.name == 'W'
    F.sum(q * 3).backward()
    numpy.testing.assert_array_equal(q.grad, [3., 3.])
    assert p.grad is None


def test_deep_copy_copies_arrays_and_is_its_own_leaf():
    p = Parameter(numpy.ones(2, numpy.float32))
    p.grad = numpy.full(2, 5., numpy.float32)
    q = copy.deepcopy(p)
    assert q.array is not p.array and q.grad is not p.grad
    numpy.testing.assert_array_equal(q.grad, p.grad)
    q.cleargrad()
    F.sum(q * 3).backward()
    numpy.testing.assert_array_equal(q.grad, [3., 3.])
    numpy.testing.assert_array_equal(p.grad, [5., 5.])


def test_deep_copy_keeps_the_device():
    p = Parameter(numpy.ones(2, numpy.float32)).to_device('@emulated')
    q = copy.deepcopy(p)
    assert isinstance(q.array, EmulatedArray) and q.device == p.device


@pytest.mark.parametrize('device', ['@numpy', '@emulated'])
def test_pickle_round_trip(device):
    p = Parameter(numpy.arange(3, dtype=numpy.float32), name='b').to_device(device)
    p.grad = p.xp.ones(3, numpy.float32)
    q = pickle.loads(pickle.dumps(p))
    assert isinstance(q, Parameter) and q.name == 'b' and str(q.device) == device
    numpy.testing.assert_array_equal(backend.to_cpu(q.array), [0, 1, 2])
    numpy.testing.assert_array_equal(backend.to_cpu(q.grad), [1, 1, 1])
    u = pickle.loads(pickle.dumps(Parameter(initializers.Zero())))
    assert not u.is_initialized


def test_repr():
    assert repr(Parameter(name='W')) == "parameter(uninitialized, name='W')"
    assert repr(Parameter(numpy.zeros(2, numpy.float32))).startswith('parameter([0., 0.]')
    assert isinstance(Parameter(), Variable)

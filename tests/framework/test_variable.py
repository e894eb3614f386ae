import gc
import weakref

import numpy
import pytest

import framework.functions as F
from framework import Variable, as_array, as_variable, backend
from framework.testing import devices


def test_attributes():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    v = Variable(x, name='x')
    assert v.array is x and v.data is x
    assert v.shape == (2, 3) and v.ndim == 2 and v.size == 6 and v.dtype == numpy.float32
    assert len(v) == 2
    assert v.name == 'x' and v.node.name == 'x'
    assert v.requires_grad
    assert v.creator is None and v.creator_node is None and v.rank == 0
    assert v.grad is None and v.grad_var is None
    assert v.xp is numpy
    assert v.label == '(2, 3), float32'
    assert Variable(numpy.ones(3, numpy.float32)).label == '(3), float32'
    assert Variable(numpy.array(1.0)).label == '(), float64'
    assert str(Variable(numpy.ones(3, numpy.float32))) == 'variable([1. 1. 1.])'
    assert 'name=' in repr(v) and repr(v).startswith('variable([[0., 1., 2.]')


def test_rejects_non_arrays():
    with pytest.raises(TypeError, match='Variable: data must be an array'):
        Variable([1, 2, 3])
    with pytest.raises(TypeError, match='Variable: data must be an array'):
        Variable(numpy.float32(1))


def test_len_of_0d_raises():
    with pytest.raises(TypeError, match='0-dimensional'):
        len(Variable(numpy.array(1.0)))


def test_item():
    assert Variable(numpy.array([2.5])).item() == 2.5


def test_grad_setter_checks_shape_dtype():
    v = Variable(numpy.zeros(3, numpy.float32))
    v.grad = numpy.ones(3, numpy.float32)
    assert v.grad_var.array is v.grad
    with pytest.raises(ValueError, match='must have shape'):
        v.grad = numpy.ones(4, numpy.float32)
    with pytest.raises(TypeError, match='must have dtype float32, got float64'):
        v.grad = numpy.ones(3)
    v.cleargrad()
    assert v.grad is None
    v.zerograd()
    numpy.testing.assert_array_equal(v.grad, numpy.zeros(3))


@pytest.mark.parametrize('device', devices(), ids=str)
def test_operators(device):
    a = numpy.array([1.0, 2.0, 4.0])
    b = numpy.array([2.0, 3.0, 0.5])
    x, y = Variable(device.send(a)), Variable(device.send(b))
    for got, want in [(x + y, a + b), (x - y, a - b), (x * y, a * b), (x / y, a / b),
                      (x ** y, a ** b), (-x, -a), (abs(-x), a), (x + 1, a + 1), (1 + x, 1 + a),
                      (2 - x, 2 - a), (2 * x, 2 * a), (2 / x, 2 / a), (x ** 2, a ** 2),
                      (2 ** x, 2 ** a), (x + device.send(b), a + b)]:
        assert isinstance(got, Variable)
        numpy.testing.assert_allclose(backend.to_cpu(got.array), want)


def test_reshape_method():
    v = Variable(numpy.arange(6.0))
    assert v.reshape(2, 3).shape == (2, 3)
    assert v.reshape((3, 2)).shape == (3, 2)


def test_unreferenced_arrays_are_freed_while_the_graph_lives():
    x = Variable(numpy.ones(1000))
    y = x + x           # Add retains nothing
    y_ref = weakref.ref(y.array)
    z = y + y
    del y
    gc.collect()
    assert y_ref() is None, 'the graph must not keep an array no function retains'
    z.grad = numpy.ones(1000)
    z.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.full(1000, 4.0))


def test_retained_arrays_live_until_the_graph_goes():
    x = Variable(numpy.ones(10))
    y = F.exp(x)        # Exp retains its output
    y_ref = weakref.ref(y.array)
    z = F.sum(y)
    del y
    gc.collect()
    assert y_ref() is not None
    del z
    gc.collect()
    assert y_ref() is None


def test_unchain_backward_releases_the_graph():
    x = Variable(numpy.ones(10))
    y = F.exp(x)
    y_ref = weakref.ref(y.array)
    z = F.sum(y * 2.0)
    del y
    z.unchain_backward()
    gc.collect()
    assert y_ref() is None
    assert z.creator is None


def test_unchain_makes_a_leaf():
    x = Variable(numpy.ones(3))
    y = x * 2.0
    y.unchain()
    assert y.creator is None
    F.sum(y).backward()
    assert x.grad is None
    numpy.testing.assert_array_equal(y.grad, numpy.ones(3))


def test_as_variable_and_as_array():
    x = numpy.ones(2)
    v = as_variable(x)
    assert isinstance(v, Variable) and not v.requires_grad
    assert as_variable(v) is v
    assert as_array(v) is x and as_array(x) is x


def test_to_device_moves_grad_too():
    v = Variable(numpy.ones(3), grad=numpy.ones(3))
    v.to_device('@emulated')
    assert v.device == devices()[1]
    assert v.grad_var.device == devices()[1]


def test_addgrad_and_copydata_across_devices():
    a = Variable(numpy.zeros(3))
    b = Variable(devices()[1].send(numpy.arange(3.0)), grad=devices()[1].send(numpy.ones(3)))
    a.addgrad(b)
    a.addgrad(b)
    numpy.testing.assert_array_equal(a.grad, [2.0, 2.0, 2.0])
    a.copydata(b)
    numpy.testing.assert_array_equal(a.array, [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match='copydata: the source has shape'):
        a.copydata(Variable(numpy.zeros(4)))

"""Variable's less travelled paths: messages, representations, the operators that delegate to
functions, copies and pickles, unchain_backward through a whole graph, gradients from another
device, and the flags of the gradients it makes."""

import copy
import pickle
import re
import threading

import numpy
import pytest

import framework.links as L
from framework import FunctionNode, Variable, backend, optimizers
from framework.testing.emulated_device import EmulatedDevice


def _var(values, **kwargs):
    return Variable(numpy.asarray(values, dtype=numpy.float64), **kwargs)


def test_messages_for_what_is_not_an_array():
    tail = ' must be an array of a device (numpy.ndarray, cupy.ndarray, ...) or None, got list'
    with pytest.raises(TypeError, match=f'^{re.escape("Variable: data" + tail)}$'):
        Variable([1.0])
    with pytest.raises(TypeError, match=f'^{re.escape("Variable: grad" + tail)}$'):
        Variable(numpy.ones(1), grad=[1.0])
    with pytest.raises(TypeError, match='^len\\(\\) of a 0-dimensional Variable$'):
        len(_var(1.0))


def test_the_initial_gradient_requires_no_gradient():
    x = _var([1.0, 2.0], grad=numpy.ones(2))
    assert x.grad_var.requires_grad is False
    numpy.testing.assert_array_equal(x.grad, [1.0, 1.0])


def test_zerograd():
    x = Variable(numpy.ones((2, 3), numpy.float32))
    x.zerograd()
    assert x.grad.dtype == numpy.float32 and x.grad.shape == (2, 3)
    assert not x.grad.any()
    assert x.grad_var.requires_grad is False


def test_a_gradient_without_data_is_not_checked():
    x = Variable()
    x.grad = numpy.ones(2)
    numpy.testing.assert_array_equal(x.grad, [1.0, 1.0])


def test_gradient_messages_without_a_name_are_whole():
    x = _var([1.0, 2.0])
    with pytest.raises(ValueError, match=r'^grad of variable  must have shape \(2,\), got \(3,\)$'):
        x.grad = numpy.ones(3)
    with pytest.raises(TypeError, match='^grad of variable  must have dtype float64, got int64$'):
        x.grad = numpy.ones(2, numpy.int64)
    e = Variable(EmulatedDevice().send(numpy.ones(2)))
    with pytest.raises(ValueError, match='^grad of variable  must be on @emulated, got one on '
                                         '@numpy$'):
        e.grad = numpy.ones(2)
    with pytest.raises(ValueError, match='^grad of variable  must be on @numpy, got one on '
                                         '@emulated$'):
        x.grad_var = e


def test_representations():
    x = Variable(numpy.zeros((2, 2)))
    assert repr(x) == 'variable([[0., 0.],\n          [0., 0.]])'
    assert str(x) == 'variable([[0. 0.]\n          [0. 0.]])'
    x.name = 'w'
    assert repr(x) == 'variable([[0., 0.],\n          [0., 0.]], name=\'w\')'
    assert repr(Variable()) == 'variable(None)'
    assert str(Variable()) == 'variable(None)'
    assert repr(_var([1.0, 2.0]).node) == '<VariableNode  (2), float64>'
    assert repr(_var([1.0], name='b').node) == '<VariableNode b (1), float64>'


def test_operators_delegate_to_the_functions():
    a = numpy.arange(24.0).reshape(2, 3, 4)
    x = Variable(a)
    numpy.testing.assert_array_equal(x.transpose().array, a.transpose())
    numpy.testing.assert_array_equal(x.transpose(None).array, a.transpose())
    numpy.testing.assert_array_equal(x.transpose(1, 0, 2).array, a.transpose(1, 0, 2))
    numpy.testing.assert_array_equal(x.transpose((2, 0, 1)).array, a.transpose(2, 0, 1))
    numpy.testing.assert_array_equal(x.transpose([0, 2, 1]).array, a.transpose(0, 2, 1))
    numpy.testing.assert_array_equal(x.reshape(24).array, a.reshape(24))
    numpy.testing.assert_array_equal(x[1, :, 2].array, a[1, :, 2])
    m = numpy.arange(6.0).reshape(2, 3)
    w = numpy.arange(12.0).reshape(3, 4)
    numpy.testing.assert_array_equal((Variable(m) @ w).array, m @ w)
    numpy.testing.assert_array_equal((m @ Variable(w)).array, m @ w)
    y = m @ Variable(w)
    assert isinstance(y, Variable)


def test_to_gpu_hands_the_variable_and_the_device_to_the_backend(monkeypatch):
    calls = []
    monkeypatch.setattr(backend, 'to_gpu', lambda x, device=None: calls.append((x, device)))
    x = _var([1.0])
    assert x.to_gpu(3) is x
    assert calls == [(x, 3)]


def test_addgrad_and_copydata_from_the_host_to_a_device():
    device = EmulatedDevice()
    x = Variable(device.send(numpy.zeros(2)))
    x.addgrad(_var([0.0, 0.0], grad=numpy.array([1.0, 2.0])))
    assert backend.get_device_from_array(x.grad) == device
    numpy.testing.assert_array_equal(backend.to_cpu(x.grad), [1.0, 2.0])
    x.copydata(_var([3.0, 4.0]))
    numpy.testing.assert_array_equal(backend.to_cpu(x.array), [3.0, 4.0])


class _HoldsLock(FunctionNode):
    """y = 2x, holding something that cannot be copied."""

    def __init__(self):
        self.lock = threading.Lock()

    def forward(self, inputs):
        return inputs[0] * 2.0,


def test_deepcopy_copies_the_variable_not_its_graph():
    x = _var([1.0, 2.0], name='x')
    y, = _HoldsLock().apply((x,))
    y.name = 'y'
    y.grad = numpy.ones(2)
    new, g = copy.deepcopy([y, y.grad_var])
    assert new.name == 'y' and new.creator is None
    assert new.grad_var is g  # one memo for the Variable and what it holds
    assert new.array is not y.array and new.grad is not y.grad
    numpy.testing.assert_array_equal(new.array, [2.0, 4.0])
    a, b = copy.deepcopy([x, x])
    assert a is b and a is not x
    x.owner = [x]  # a Variable inside what it holds
    c = copy.deepcopy(x)
    assert c.owner[0] is c


def test_to_cpu():
    x = Variable(EmulatedDevice().send(numpy.ones(2)), grad=EmulatedDevice().send(numpy.ones(2)))
    assert x.to_cpu() is x
    assert type(x.array) is numpy.ndarray and type(x.grad) is numpy.ndarray


def test_pickle_keeps_the_name_the_array_and_the_gradient():
    x = _var([1.0, 2.0], name='x', grad=numpy.array([3.0, 4.0]), requires_grad=False)
    y = pickle.loads(pickle.dumps(x))
    assert y.name == 'x' and y.requires_grad is False
    numpy.testing.assert_array_equal(y.array, [1.0, 2.0])
    numpy.testing.assert_array_equal(y.grad, [3.0, 4.0])
    assert y.node is not x.node and y.node.get_variable_or_none() is y
    assert y.creator is None


class _Keep(FunctionNode):
    """y = x retaining its input."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0].copy(),


def test_unchain_backward_unchains_every_function_behind():
    x = _var([1.0, 2.0])
    fs = [_Keep() for _ in range(3)]
    h = x
    for f in fs:
        h, = f.apply((h,))
    h2, = _Keep().apply((x,))
    z = h + h2  # two branches
    adder = z.creator
    z.unchain_backward()
    assert z.creator is None and adder.inputs is None
    for f in fs:
        assert f.inputs is None and f._retained_input_data is None
    assert h.creator is None and h2.creator is None


def test_a_retained_input_stands_for_a_dropped_variable_and_its_gradient_is_none():
    seen = []

    class Probe(FunctionNode):
        def forward(self, inputs):
            self.retain_inputs((0,))
            return inputs[0] * 2.0,

        def backward(self, indexes, grad_outputs):
            x, = self.get_retained_inputs()
            seen.append((x, x.grad, x.node.get_variable_or_none() is x))
            return grad_outputs[0] * 2.0,

    y, = Probe().apply((_var([1.0]),))
    y.backward()
    (x, grad, bound), = seen
    assert grad is None and bound


def test_a_retained_input_with_a_replaced_array_leaves_the_node_to_the_user():
    class Probe(FunctionNode):
        def forward(self, inputs):
            self.retain_inputs((0,))
            return inputs[0] * 2.0,

        def backward(self, indexes, grad_outputs):
            self.get_retained_inputs()
            return grad_outputs[0] * 2.0,

    x = _var([1.0])
    y, = Probe().apply((x,))
    x.array = numpy.array([5.0])
    y.backward()
    assert x.node.get_variable_or_none() is x
    numpy.testing.assert_array_equal(x.grad, [2.0])


def test_an_optimizer_updates_a_parameter_whose_gradient_was_set_by_hand():
    link = L.Linear(2, 1, initialW=numpy.ones((1, 2), numpy.float32))
    opt = optimizers.SGD(lr=0.5).setup(link)
    link.W.grad = numpy.full((1, 2), 2.0, numpy.float32)
    link.b.grad = numpy.ones(1, numpy.float32)
    opt.update()
    numpy.testing.assert_array_equal(link.W.array, [[0.0, 0.0]])
    numpy.testing.assert_array_equal(link.b.array, [-0.5])

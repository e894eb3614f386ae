"""The less travelled paths of the backward pass (framework._backprop): what a function's
backward may return, which gradients are copied, the gradients' own flags, grad()'s arguments,
and the early gradients of leaves that an optimizer reads while the pass goes on."""

import re

import numpy
import pytest

import framework.functions as F
from framework import FunctionNode, Variable, _backprop, grad
from framework.backend import CpuDevice
from framework.testing.emulated_device import EmulatedDevice


def _var(values, **kwargs):
    return Variable(numpy.asarray(values, dtype=numpy.float64), **kwargs)


class _Returns(FunctionNode):
    """y = x (one input) or y = sum of the inputs; backward returns ``make(grad_outputs)``."""

    def __init__(self, make):
        self.make = make
        self.indexes = []

    def forward(self, inputs):
        total = inputs[0].copy()
        for x in inputs[1:]:
            total += x
        return total,

    def backward(self, indexes, grad_outputs):
        self.indexes.append(indexes)
        return self.make(grad_outputs)


def _seeded(y, values):
    y.grad = numpy.asarray(values, dtype=numpy.float64)
    return y


# --- what backward may return ---------------------------------------------------------------

def test_backward_may_return_a_list():
    x = _var([1.0, 2.0])
    y, = _Returns(lambda gys: [gys[0] * 3.0]).apply((x,))
    _seeded(y, [1.0, 1.0]).backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_backward_may_return_a_single_variable_not_in_a_tuple():
    # A Variable of two elements is iterable: it must not be taken for two gradients.
    x = _var([1.0, 2.0])
    y, = _Returns(lambda gys: gys[0] * 3.0).apply((x,))
    _seeded(y, [1.0, 1.0]).backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_backward_may_return_the_gradients_of_all_inputs():
    x, c = _var([1.0, 2.0]), _var([5.0, 5.0], requires_grad=False)
    f = _Returns(lambda gys: (gys[0] * 2.0, gys[0] * 100.0))
    y, = f.apply((c, x))
    _seeded(y, [1.0, 1.0]).backward()
    assert f.indexes == [(1,)]
    numpy.testing.assert_array_equal(x.grad, [100.0, 100.0])


def test_backward_returning_too_many_gradients_is_an_error():
    x = _var([1.0, 2.0])
    y, = _Returns(lambda gys: (gys[0], gys[0], gys[0])).apply((x,))
    with pytest.raises(ValueError, match=r'^_Returns\.backward returned 3 gradients for 1 '
                                         r'requested inputs$'):
        _seeded(y, [1.0, 1.0]).backward()


def test_backward_may_return_arrays():
    x = _var([1.0, 2.0])
    y, = _Returns(lambda gys: (gys[0].array * 3.0,)).apply((x,))
    _seeded(y, [1.0, 1.0]).backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])
    assert x.grad_var.requires_grad is False


def test_a_none_gradient_skips_only_its_input():
    a, b, c = _var([1.0]), _var([2.0]), _var([3.0])
    y, = _Returns(lambda gys: (None, gys[0] * 2.0, gys[0] * 3.0)).apply((a, b, c))
    y.backward()
    assert a.grad is None
    numpy.testing.assert_array_equal(b.grad, [2.0])
    numpy.testing.assert_array_equal(c.grad, [3.0])


def test_a_gradient_of_another_dtype_is_an_error():
    x = _var([1.0, 2.0])
    y, = _Returns(lambda gys: (gys[0].array.astype(numpy.float32),)).apply((x,))
    with pytest.raises(TypeError, match=r'^_Returns\.backward: gradient of an input of dtype '
                                        r'float64 has dtype float32$'):
        _seeded(y, [1.0, 1.0]).backward()


def test_a_gradient_of_another_shape_is_an_error():
    x = _var([1.0, 2.0])
    y, = _Returns(lambda gys: (gys[0].array[:1],)).apply((x,))
    with pytest.raises(ValueError, match=r'^_Returns\.backward: gradient of an input of shape '
                                         r'\(2,\) has shape \(1,\)$'):
        _seeded(y, [1.0, 1.0]).backward()


def test_a_function_none_of_whose_inputs_needs_a_gradient_is_not_run():
    x, c = _var([1.0]), _var([2.0], requires_grad=False)
    f = _Returns(lambda gys: (gys[0],))
    h, = f.apply((c,))
    (h * x).backward()
    assert f.indexes == []
    numpy.testing.assert_array_equal(x.grad, [2.0])


def test_a_leaf_whose_variable_is_gone_is_skipped():
    y, = _Returns(lambda gys: (gys[0],)).apply((_var([1.0]),))
    y.backward()  # the input's Variable was dropped: nothing to store its gradient in
    numpy.testing.assert_array_equal(y.array, [1.0])


# --- which gradients are stored as they are, which are copied -------------------------------

@pytest.mark.parametrize('device', [CpuDevice(), EmulatedDevice()], ids=str)
def test_a_new_writable_gradient_is_stored_as_it_is(device):
    # The emulated device's arrays, as CuPy's, have no writeable flag: they are writable.
    g = device.send(numpy.array([3.0, 4.0]))
    x = Variable(device.send(numpy.array([1.0, 2.0])))
    y, = _Returns(lambda gys: (g,)).apply((x,))
    y.grad = device.send(numpy.ones(2))
    y.backward()
    assert x.grad is g


def test_a_read_only_gradient_is_copied():
    g = numpy.array([3.0, 4.0])
    g.flags.writeable = False
    x = _var([1.0, 2.0])
    y, = _Returns(lambda gys: (g,)).apply((x,))
    _seeded(y, [1.0, 1.0]).backward()
    assert x.grad is not g
    assert x.grad.flags.writeable
    numpy.testing.assert_array_equal(x.grad, g)
    assert x.grad_var.requires_grad is False


def test_a_gradient_that_is_a_view_is_copied():
    x = _var([[1.0, 2.0], [3.0, 4.0]])
    y = x.reshape(4)
    y.grad = numpy.arange(4.0)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0.0, 1.0], [2.0, 3.0]])
    assert x.grad.base is None
    assert not numpy.shares_memory(x.grad, y.grad)


def test_one_gradient_for_two_leaves_is_copied_for_the_second():
    a, b = _var([1.0, 2.0]), _var([3.0, 4.0])
    y = a + b
    y.grad = numpy.ones(2)
    y.backward()
    assert not numpy.shares_memory(a.grad, b.grad)
    a.grad *= 5
    numpy.testing.assert_array_equal(b.grad, [1.0, 1.0])


# --- the gradients are Variables that require no gradient -----------------------------------

def test_every_gradient_requires_no_gradient():
    x = _var([1.0, 2.0])
    y = x * x  # two gradients summed
    _seeded(y, [1.0, 1.0]).backward()
    assert x.grad_var.requires_grad is False

    loss = F.sum(x * 2.0)
    loss.backward(retain_grad=True)  # the initial gradient
    assert loss.grad_var.requires_grad is False
    loss = F.sum(x * 2.0)
    loss.backward(retain_grad=True, loss_scale=4.0)  # the scaled initial gradient
    assert loss.grad_var.requires_grad is False
    numpy.testing.assert_array_equal(loss.grad, 4.0)

    s = _var(2.0)  # a leaf differentiated by itself
    s.backward()
    assert s.grad_var.requires_grad is False
    numpy.testing.assert_array_equal(s.grad, 1.0)


def test_grad_results_require_no_gradient():
    x = _var([1.0, 2.0])
    s = F.sum(x * 3.0)
    gs, = grad([s], [s])
    assert gs.requires_grad is False
    numpy.testing.assert_array_equal(gs.array, 1.0)
    y = x * 3.0
    gx, = grad([y], [x], grad_outputs=[numpy.ones(2)], grad_inputs=[numpy.ones(2)],
               retain_grad=True)
    assert y.grad_var.requires_grad is False
    assert gx.requires_grad is False
    numpy.testing.assert_array_equal(gx.array, [4.0, 4.0])


def test_a_leaf_that_requires_no_gradient_gets_none_even_as_the_output():
    x = _var(2.0, requires_grad=False)
    x.backward()
    assert x.grad is None


def test_a_zero_dimensional_leaf_used_twice_gets_an_array():
    x = _var(3.0)
    (x * x).backward()
    assert isinstance(x.grad, numpy.ndarray)
    numpy.testing.assert_array_equal(x.grad, 6.0)
    gx, = grad([x * x], [x], grad_inputs=[numpy.asarray(1.0)])
    assert isinstance(gx.array, numpy.ndarray)
    numpy.testing.assert_array_equal(gx.array, 7.0)


def test_no_data_to_differentiate():
    with pytest.raises(ValueError, match='^backward: the variable has no data$'):
        Variable().backward()


def test_the_message_for_a_non_scalar_output_is_whole():
    message = ('backward: the variable has shape (2,); without an initial gradient backward() '
               'needs a single-element output. Set its grad to the gradient to propagate.')
    with pytest.raises(ValueError, match=f'^{re.escape(message)}$'):
        (_var([1.0, 2.0]) * 2.0).backward()


# --- grad() --------------------------------------------------------------------------------

def test_grad_defaults_keep_no_intermediate_gradient_and_no_graph():
    x = _var([1.0, 2.0])
    h = x * x
    gx, = grad([F.sum(h)], [x])
    assert h.grad_var is None
    assert gx.creator is None
    numpy.testing.assert_array_equal(gx.array, [2.0, 4.0])


def test_grad_scales_the_initial_gradients():
    x = _var([1.0, 2.0])
    gx, = grad([F.sum(x * 3.0)], [x], loss_scale=4.0)
    numpy.testing.assert_array_equal(gx.array, [12.0, 12.0])


def test_grad_adds_grad_inputs_to_an_unconnected_input():
    x, z = _var([1.0, 2.0]), _var([5.0])
    gx, gz = grad([F.sum(x * 3.0)], [x, z], grad_inputs=[None, numpy.array([7.0])])
    numpy.testing.assert_array_equal(gx.array, [3.0, 3.0])
    numpy.testing.assert_array_equal(gz.array, [7.0])


def test_grad_inputs_are_added_in_the_graph_with_double_backprop():
    x = _var([1.0, 2.0])
    v = _var([10.0, 20.0])
    gx, = grad([F.sum(x * x)], [x], grad_inputs=[v], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gx.array, [12.0, 24.0])
    gx2, gv = grad([F.sum(gx * gx)], [x, v])
    numpy.testing.assert_array_equal(gx2.array, 4 * gx.array)
    numpy.testing.assert_array_equal(gv.array, 2 * gx.array)


def test_grad_outputs_may_be_variables_or_none():
    x = _var([1.0, 2.0])
    s = F.sum(x * 3.0)
    gx, = grad([s], [x], grad_outputs=[None])
    numpy.testing.assert_array_equal(gx.array, [3.0, 3.0])
    y = x * 3.0
    gx, = grad([y], [x], grad_outputs=[_var([1.0, 2.0], requires_grad=False)])
    numpy.testing.assert_array_equal(gx.array, [3.0, 6.0])


def test_grad_messages_are_whole():
    x = _var([1.0, 2.0])
    y = x * 2.0
    with pytest.raises(TypeError, match=r'^grad: outputs must be a sequence of Variables, got a '
                                        r'Variable; wrap it in a list$'):
        grad(y, [x])
    with pytest.raises(TypeError, match=r'^grad: inputs\[1\] must be a Variable, got ndarray$'):
        grad([y], [x, x.array])
    message = ('grad: an output has shape (2,); give its grad_outputs entry (only '
               'single-element outputs default to 1)')
    with pytest.raises(ValueError, match=f'^{re.escape(message)}$'):
        grad([y], [x])
    with pytest.raises(ValueError, match='^grad: grad_inputs must have 1 entries, got 0$'):
        grad([F.sum(y)], [x], grad_inputs=[])


def test_grad_through_many_paths_visits_each_node_once():
    # 2 ** 60 paths from the output to x: the traversal must not follow each of them.
    x = _var([1.0])
    h = x
    for _ in range(60):
        h = h + h
    gx, = grad([h], [x])
    numpy.testing.assert_array_equal(gx.array, [2.0 ** 60])


# --- on_leaf_grad: leaves whose gradient is final before the pass ends ------------------------

class _Probe(FunctionNode):
    def __init__(self, name, log):
        self.name, self.log = name, log

    def forward(self, inputs):
        return inputs[0],

    def backward(self, indexes, grad_outputs):
        self.log.append(self.name)
        return grad_outputs


def _early_leaves(loss, log):
    def on_leaf_grad(leaf):
        log.append((leaf.name, leaf.grad.tolist()))
    _backprop.backward(loss, False, False, None, None, on_leaf_grad=on_leaf_grad)


def test_each_leaf_is_reported_as_soon_as_its_last_reader_has_run():
    log = []
    x = _var([1.0], name='x')
    w1 = _var([2.0], name='w1')
    w2 = _var([3.0], name='w2')
    h1, = _Probe('p1', log).apply((x * w1,))
    h2, = _Probe('p2', log).apply((h1 * w2,))
    loss = F.sum(h2 * w2)  # w2 is read by two functions, its gradient summed
    _early_leaves(loss, log)
    # h1 = 2, h2 = 6: d loss / d w2 = h2 + h1 * w2 = 12, d / d w1 = x * w2 * w2 = 9.
    assert log == ['p2', ('w2', [12.0]), 'p1', ('x', [18.0]), ('w1', [9.0])]
    assert x.grad.tolist() == [18.0]


def test_a_leaf_read_twice_by_one_function_and_through_a_diamond():
    log = []
    x = _var([2.0], name='x')
    w = _var([3.0], name='w')
    h, = _Probe('p', log).apply((x * x,))  # x read twice by one function
    a, = _Probe('a', log).apply((h,))
    b, = _Probe('b', log).apply((h * w,))  # h reached through two paths
    _early_leaves(F.sum(a + b), log)
    # d / dx = 2x (1 + w) = 16, d / dw = h = 4.
    assert sorted(map(str, log[:3])) == ["('w', [4.0])", 'a', 'b']
    assert log[3:] == ['p', ('x', [16.0])]


def test_a_leaf_output_is_reported_at_the_end():
    log = []
    s = _var(2.0, name='s')
    _early_leaves(s, log)
    assert log == [('s', 1.0)]
    c = _var(2.0, name='c', requires_grad=False)
    _early_leaves(F.sum(c * 3.0), log)
    assert log == [('s', 1.0)]


def test_leaves_behind_a_function_reached_twice_are_counted_once():
    log = []
    s, t = _var([2.0], name='s'), _var([3.0], name='t')
    x, w = _var([5.0], name='x'), _var([7.0], name='w')
    t1, = _Probe('r', log).apply((t,))
    x1, = _Probe('q', log).apply((x,))
    h = x1 * w  # reached through a and b
    a, = _Probe('a', log).apply((h,))
    b, = _Probe('b', log).apply((h,))
    _early_leaves(F.sum(t1 * s) + F.sum(a + b), log)
    leaves = sorted(entry for entry in log if isinstance(entry, tuple))
    assert leaves == [('s', [3.0]), ('t', [2.0]), ('w', [10.0]), ('x', [14.0])]
    assert log.index(('s', [3.0])) < log.index('r') < log.index(('t', [2.0]))
    assert log.index(('w', [10.0])) < log.index('q') < log.index(('x', [14.0]))


def test_a_function_of_integers_alone_is_not_run():
    class ToFloat(FunctionNode):
        calls = []

        def forward(self, inputs):
            return inputs[0].astype(numpy.float64),

        def backward(self, indexes, grad_outputs):
            self.calls.append(indexes)
            return None,

    x = _var([1.0, 2.0])
    f = ToFloat()
    h, = f.apply((Variable(numpy.array([3, 4])),))
    F.sum(h * x).backward()
    assert f.calls == []
    numpy.testing.assert_array_equal(x.grad, [3.0, 4.0])

import gc

import numpy
import pytest

import framework.functions as F
from framework import FunctionNode, Variable, no_backprop_mode
from framework.testing.emulated_device import EmulatedDevice


class Square(FunctionNode):
    """x ** 2 retaining its input; backward built from differentiable ops."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] * inputs[0],

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * x * 2.0,


class ExpOut(FunctionNode):
    """exp retaining its output."""

    def forward(self, inputs):
        self.retain_outputs((0,))
        return numpy.exp(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y,


class SplitHalves(FunctionNode):
    """Two outputs; backward copes with a missing output gradient."""

    def forward(self, inputs):
        x, = inputs
        n = len(x) // 2
        return x[:n].copy(), x[n:].copy()

    def backward(self, indexes, grad_outputs):
        ga, gb = grad_outputs
        n = self.inputs[0].shape[0] // 2
        zeros = numpy.zeros(n, dtype=self.inputs[0].dtype)
        parts = [zeros if g is None else g.array for g in (ga, gb)]
        return Variable(numpy.concatenate(parts)),


def test_apply_records_graph():
    x = Variable(numpy.array([1.0, 2.0]))
    func = Square()
    y, = func.apply((x,))
    assert y.creator is func
    assert func.inputs == (x.node,)
    assert func.outputs[0]() is y.node
    assert y.rank == 1 and func.rank == 0
    numpy.testing.assert_array_equal(y.array, [1.0, 4.0])


def test_apply_accepts_arrays_and_records_no_graph_without_grad():
    y, = Square().apply((numpy.array([3.0]),))
    assert not y.requires_grad
    assert y.creator is None


def test_no_backprop_mode_records_nothing_and_retains_nothing():
    x = Variable(numpy.ones(2))
    func = Square()
    with no_backprop_mode():
        y, = func.apply((x,))
    assert y.creator is None
    assert func._retained_input_data is None
    assert y.requires_grad


def test_gradient_through_retained_input():
    x = Variable(numpy.array([1.0, -3.0]))
    y, = Square().apply((x,))
    y.grad = numpy.ones(2)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, -6.0])


def test_retained_output_after_the_output_variable_is_gone():
    x = Variable(numpy.array([0.5, 1.0]))
    y, = ExpOut().apply((x,))
    z = F.sum(y)
    del y
    gc.collect()
    gx, = framework_grad([z], [x], enable_double_backprop=True)
    numpy.testing.assert_allclose(gx.array, numpy.exp(x.array))
    ggx, = framework_grad([F.sum(gx)], [x])
    numpy.testing.assert_allclose(ggx.array, numpy.exp(x.array))


def framework_grad(*args, **kwargs):
    from framework import grad
    return grad(*args, **kwargs)


def test_missing_output_gradient_is_none():
    x = Variable(numpy.arange(4.0))
    a, b = SplitHalves().apply((x,))
    F.sum(a * 3.0).backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0, 0.0, 0.0])


def test_forward_must_return_a_tuple():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return inputs[0]

    with pytest.raises(TypeError, match='Bad.forward must return a tuple of arrays'):
        Bad().apply((numpy.ones(1),))


def test_input_must_be_array_or_variable():
    with pytest.raises(TypeError, match='Square: input 0 must be a Variable or an array, '
                                        'got list'):
        Square().apply(([1.0],))


def test_inputs_on_two_devices_are_rejected():
    e = EmulatedDevice().send(numpy.ones(2))
    with pytest.raises(ValueError, match='Add: all inputs must be on one device'):
        F.add(numpy.ones(2), e)


def test_backward_with_wrong_number_of_gradients():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return inputs[0] + inputs[1],

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0],

    x = Variable(numpy.ones(2))
    y, = Bad().apply((x, Variable(numpy.ones(2))))
    y.grad = numpy.ones(2)
    with pytest.raises(ValueError, match='Bad.backward returned 1 gradients for 2 requested'):
        y.backward()


def test_backward_with_wrong_gradient_shape():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return inputs[0].sum(keepdims=True),

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0],

    x = Variable(numpy.ones(3))
    y, = Bad().apply((x,))
    with pytest.raises(ValueError, match=r'Bad.backward: gradient of an input of shape \(3,\) '
                                         r'has shape \(1,\)'):
        y.backward()


def test_backward_only_computes_requested_gradients():
    seen = []

    class Record(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * inputs[1],

        def backward(self, indexes, grad_outputs):
            seen.append(indexes)
            return tuple(grad_outputs[0] for _ in indexes)

    x = Variable(numpy.ones(2))
    c = Variable(numpy.ones(2), requires_grad=False)
    y, = Record().apply((c, x))
    y.grad = numpy.ones(2)
    y.backward()
    assert seen == [(1,)]


@pytest.mark.filterwarnings('ignore:invalid value encountered in log:RuntimeWarning')
def test_debug_mode_detects_nan():
    from framework import using_config
    with using_config('debug', True):
        with pytest.raises(RuntimeError, match='Log: output 0 contains NaN'):
            F.log(numpy.array([-1.0]))

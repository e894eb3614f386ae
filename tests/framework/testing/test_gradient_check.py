import numpy
import pytest

import framework.functions as F
from framework import FunctionNode, Variable
from framework.testing import NondifferentiableError, check_backward, check_double_backward


class WrongGrad(FunctionNode):
    """x * y with the gradient of x off by a factor of two."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return inputs[0] * inputs[1],

    def backward(self, indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        gy, = grad_outputs
        return tuple({0: gy * y * 2.0, 1: gy * x}[i] for i in indexes)


class ArrayBackward(FunctionNode):
    """x * y whose backward escapes the graph (right first order, no second order)."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return inputs[0] * inputs[1],

    def backward(self, indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        g = grad_outputs[0].array
        return tuple(Variable({0: g * y.array, 1: g * x.array}[i]) for i in indexes)


def _data(*shapes):
    rng = numpy.random.RandomState(1)
    return tuple(rng.uniform(0.5, 1.5, s) for s in shapes)


def test_correct_gradients_pass():
    x, y, gy = _data(3, 3, 3)
    check_backward(lambda a, b: a * b, (x, y), gy)
    check_double_backward(lambda a, b: a * b, (x, y), gy, _data(3, 3))


def test_wrong_gradient_is_reported_with_details():
    x, y, gy = _data(4, 4, 4)
    with pytest.raises(AssertionError) as info:
        check_backward(lambda a, b: WrongGrad().apply((a, b))[0], (x, y), gy)
    report = str(info.value)
    for part in ('backprop and the numerical derivative differ', 'eps: 0.001', 'atol:',
                 'numerical:', 'backprop:', 'input 0', 'direction 1', 'backprop gradient 0'):
        assert part in report


def test_no_grads_skips_an_input():
    x, y, gy = _data(4, 4, 4)
    check_backward(lambda a, b: WrongGrad().apply((a, b))[0], (x, y), gy,
                   no_grads=[True, False])


def test_backward_that_escapes_the_graph_fails_the_double_check():
    x, y, gy = _data(3, 3, 3)
    f = lambda a, b: ArrayBackward().apply((a, b))[0]  # noqa: E731
    check_backward(f, (x, y), gy)
    with pytest.raises(AssertionError):
        check_double_backward(f, (x, y), gy, _data(3, 3))


def test_params_are_checked():
    x, gy = _data(3, 3)
    w = Variable(numpy.array([0.5, 2.0, 1.0]))
    check_backward(lambda a: a * w * w, x, gy, params=(w,))
    wrong = Variable(numpy.array([0.5, 2.0, 1.0]))
    with pytest.raises(AssertionError):
        check_backward(lambda a: WrongGrad().apply((wrong, a))[0], x, gy, params=(wrong,))


def test_scalar_output_needs_no_y_grad():
    x, = _data(5)
    check_backward(lambda a: F.sum(a * a), x, None)


def test_float16_with_float64_numerics():
    x, y, gy = (a.astype(numpy.float16) for a in _data(3, 3, 3))
    check_backward(lambda a, b: a * b, (x, y), gy, dtype=numpy.float64, atol=1e-2, rtol=1e-2)


def test_nondifferentiable_point_is_detected():
    x = numpy.array([0.0, 1.0])
    gy = numpy.ones(2)
    with pytest.raises(NondifferentiableError, match='one-sided derivatives differ'):
        check_backward(lambda a: abs(a), x, gy, detect_nondifferentiable=True)
    check_backward(lambda a: abs(a), numpy.array([0.5, 1.0]), gy,
                   detect_nondifferentiable=True)


def test_argument_errors():
    x, gy = _data(3, 3)
    with pytest.raises(ValueError, match='no_grads must have 1 entries'):
        check_backward(lambda a: a * 2.0, x, gy, no_grads=[True, True])
    with pytest.raises(ValueError, match='dtype must be a float dtype'):
        check_backward(lambda a: a * 2.0, x, gy, dtype=numpy.int32)
    with pytest.raises(ValueError, match='y_grad must have 1 entries'):
        check_backward(lambda a: a * 2.0, x, (gy, gy))

"""FunctionNode's less travelled paths: the type check's arguments, the messages, the retained
Variables (the user's own or new ones, outputs made anew), functions that retain nothing, the
recorder of applications, and the NaN check of finite outputs."""

import gc
import re
import threading

import numpy
import pytest

from framework import FunctionNode, Variable, function_node, no_backprop_mode, using_config


def _var(values, **kwargs):
    return Variable(numpy.asarray(values, dtype=numpy.float64), **kwargs)


class _Retaining(FunctionNode):
    """(x * 2, x * 3) retaining its input and its second output; backward records them."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((1,))
        x, = inputs
        return x * 2.0, x * 3.0

    def backward(self, indexes, grad_outputs):
        self.seen = self.get_retained_inputs(), self.get_retained_outputs()
        g = sum(gy * k for gy, k in zip(grad_outputs, (2.0, 3.0)) if gy is not None)
        return g,


def test_check_type_forward_is_given_the_input_arrays():
    seen = []

    class Checked(FunctionNode):
        def check_type_forward(self, in_data):
            seen.append(in_data)

        def forward(self, inputs):
            return inputs[0],

    x = numpy.array([1.0])
    Checked().apply((x,))
    assert len(seen) == 1 and seen[0][0] is x


def test_unimplemented_forward_and_backward_name_the_function():
    class Bare(FunctionNode):
        pass

    with pytest.raises(NotImplementedError, match='^Bare does not implement forward$'):
        Bare().apply((numpy.ones(1),))
    with pytest.raises(NotImplementedError, match='^Bare does not implement backward$'):
        Bare().backward((0,), (None,))


def test_forward_results_that_are_not_arrays_are_named():
    class ReturnsList(FunctionNode):
        def forward(self, inputs):
            return [inputs[0]]

    class ReturnsText(FunctionNode):
        def forward(self, inputs):
            return 'y',

    with pytest.raises(TypeError, match='^ReturnsList.forward must return a tuple of arrays, '
                                        'got list$'):
        ReturnsList().apply((numpy.ones(1),))
    with pytest.raises(TypeError, match='^ReturnsText.forward returned str, not an array$'):
        ReturnsText().apply((numpy.ones(1),))


def test_the_retained_input_and_output_are_the_users_variables():
    x = _var([1.0, 2.0])
    f = _Retaining()
    y0, y1 = f.apply((x,))
    y1.grad = numpy.ones(2)
    y1.backward(retain_graph=True)
    (rx,), (ry1,) = f.seen
    assert rx is x
    assert ry1 is y1
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_a_replaced_array_is_retained_as_it_was():
    x = _var([1.0, 2.0])
    f = _Retaining()
    y0, y1 = f.apply((x,))
    old_x, old_y1 = x.array, y1.array
    x.array = numpy.zeros(2)
    y1.array = numpy.zeros(2)
    y1.grad = numpy.ones(2)
    y1.backward()
    (rx,), (ry1,) = f.seen
    assert rx is not x and rx.array is old_x and rx.node is x.node
    assert ry1 is not y1 and ry1.array is old_y1 and ry1.node is y1.node


def test_an_output_that_is_gone_is_made_anew_with_the_function_as_its_creator():
    x = _var([1.0, 2.0])
    f = _Retaining()
    y0, y1 = f.apply((x,))
    data = y1.array
    del y1
    gc.collect()
    assert f.outputs[1]() is None
    y0.grad = numpy.ones(2)
    y0.backward()
    (ry1,) = f.seen[1]
    assert ry1.array is data
    assert ry1.requires_grad is True
    assert ry1.creator is f
    assert f.outputs[1]() is ry1.node
    numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])


class _RetainsNothing(FunctionNode):
    def forward(self, inputs):
        return inputs[0] * 2.0,

    def backward(self, indexes, grad_outputs):
        assert self.get_retained_inputs() == ()
        assert self.get_retained_outputs() == ()
        return grad_outputs[0] * 2.0,


def test_a_function_that_retains_nothing_can_be_differentiated_twice():
    x = _var([1.0, 2.0])
    f = _RetainsNothing()
    y, = f.apply((x,))
    y.grad = numpy.ones(2)
    y.backward()  # frees nothing: no retain_graph needed for the second
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [4.0, 4.0])
    with no_backprop_mode():
        g = _Retaining()
        g.apply((x,))
    assert g.get_retained_inputs() == () and g.get_retained_outputs() == ()


def test_an_unchained_function_has_no_retained_inputs():
    x = _var([1.0, 2.0])
    f = _Retaining()
    y0, y1 = f.apply((x,))
    f.unchain()
    assert f.inputs is None
    assert f.get_retained_inputs() == ()


def test_the_message_of_a_second_backward_is_whole():
    x = _var([1.0, 2.0])
    f = _Retaining()
    y0, y1 = f.apply((x,))
    y1.grad = numpy.ones(2)
    y1.backward()
    message = ('_Retaining: backward through this function a second time, but the arrays it '
               'retained were freed after the first backward. Pass retain_graph=True to the '
               'first backward() or grad() to differentiate the graph more than once.')
    with pytest.raises(RuntimeError, match=f'^{re.escape(message)}$'):
        y1.backward()


class _Recorder:
    def __init__(self):
        self.thread = threading.get_ident()
        self.depth = 0
        self.records = []

    def record(self, node, input_variables, output_variables):
        self.records.append((node, input_variables, output_variables))


class _Outer(FunctionNode):
    """Applies _RetainsNothing to a Variable that requires a gradient inside its forward."""

    def forward(self, inputs):
        inner, = _RetainsNothing().apply((Variable(inputs[0]),))
        return inner.array + 1.0,


def test_the_recorder_gets_the_outermost_applications_only():
    recorder = _Recorder()
    function_node.tracers.append(recorder)
    try:
        x = _var([1.0, 2.0])
        f = _Outer()
        y, = f.apply((x,))
        with no_backprop_mode():
            g = _Outer()
            z, = g.apply((x,))
    finally:
        function_node.tracers.remove(recorder)
    assert len(recorder.records) == 2
    (node, inputs, outputs), (node2, inputs2, outputs2) = recorder.records
    assert node is f and inputs == [x] and outputs == (y,)
    assert node2 is g and inputs2 == [x] and outputs2 == (z,)
    assert recorder.depth == 0
    numpy.testing.assert_array_equal(y.array, [3.0, 5.0])


def test_debug_mode_passes_finite_outputs():
    with using_config('debug', True):
        y, = _RetainsNothing().apply((_var([1.0, 2.0]),))
    numpy.testing.assert_array_equal(y.array, [2.0, 4.0])

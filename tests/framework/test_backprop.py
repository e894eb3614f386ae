import gc
import weakref

import numpy
import pytest

import framework.functions as F
from framework import FunctionNode, Variable, backend, grad
from framework.testing import devices


def _var(values, **kwargs):
    return Variable(numpy.asarray(values, dtype=numpy.float64), **kwargs)


def test_scalar_output_starts_with_one():
    x = _var([1.0, 2.0])
    F.sum(x * x).backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 4.0])


def test_non_scalar_output_needs_a_gradient():
    x = _var([1.0, 2.0])
    with pytest.raises(ValueError, match=r'backward: the variable has shape \(2,\); without an '
                                         'initial gradient'):
        (x * 2.0).backward()


def test_leaf_gradients_accumulate_across_backward_calls():
    x = _var([1.0, 2.0])
    F.sum(x * 3.0).backward()
    F.sum(x * 3.0).backward()
    numpy.testing.assert_array_equal(x.grad, [6.0, 6.0])
    x.cleargrad()
    F.sum(x * 3.0).backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_a_leaf_used_twice_adds_its_earlier_gradient_once():
    # Reuse within one call and accumulation over calls together: d(sum(x * x))/dx = 2x, twice.
    x = _var([1.0, 2.0])
    F.sum(x * x).backward()
    F.sum(x * x).backward()
    numpy.testing.assert_array_equal(x.grad, [4.0, 8.0])
    y = x * x * x
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [7.0, 20.0])


def test_variable_used_several_times():
    x = _var([3.0])
    y = x * x * x + x
    y.backward()
    numpy.testing.assert_allclose(x.grad, [3 * 9.0 + 1])


def test_diamond_graph_runs_each_function_once():
    calls = []

    class Count(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1.0,

        def backward(self, indexes, grad_outputs):
            calls.append(1)
            return grad_outputs

    x = _var([1.0, 2.0])
    h, = Count().apply((x,))
    y = F.sum(h * 2.0 + h * 3.0)
    y.backward()
    assert len(calls) == 1
    numpy.testing.assert_array_equal(x.grad, [5.0, 5.0])


def test_deep_chain_does_not_recurse():
    x = _var([1.0])
    h = x
    for _ in range(5000):
        h = h * 1.0
    F.sum(h).backward()
    numpy.testing.assert_array_equal(x.grad, [1.0])


def test_requires_grad_false_gets_no_gradient():
    x = _var([1.0], requires_grad=False)
    w = _var([2.0])
    F.sum(x * w).backward()
    assert x.grad is None
    numpy.testing.assert_array_equal(w.grad, [1.0])


def test_retain_grad_keeps_intermediate_gradients():
    x = _var([1.0, 2.0])
    h = x * 2.0
    y = F.sum(h * h)
    y.backward()
    assert h.grad is None
    x.cleargrad()
    h = x * 2.0
    y = F.sum(h * h)
    y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(h.grad, 2 * h.array)


def test_loss_scale_multiplies_the_gradients_and_is_remembered():
    x = _var([1.0, 2.0])
    F.sum(x * 3.0).backward(loss_scale=8.0)
    numpy.testing.assert_array_equal(x.grad, [24.0, 24.0])
    assert x._loss_scale == 8.0


def test_graph_is_released_by_backward():
    x = _var([1.0, 2.0])
    y = F.sum(F.exp(x))
    y.backward()
    with pytest.raises(RuntimeError, match='retain_graph=True'):
        y.backward()


def test_retain_graph_allows_a_second_backward():
    x = _var([1.0, 2.0])
    y = F.sum(F.exp(x))
    y.backward(retain_graph=True)
    y.backward()
    numpy.testing.assert_allclose(x.grad, 2 * numpy.exp(x.array))


@pytest.mark.parametrize('device', devices(), ids=str)
def test_double_backprop_through_backward(device):
    x = Variable(device.send(numpy.array([1.0, 2.0])))
    y = F.sum(x * x * x)
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    assert gx.creator is not None
    x.cleargrad()
    F.sum(gx).backward()
    numpy.testing.assert_allclose(backend.to_cpu(x.grad), 6 * numpy.array([1.0, 2.0]))


def test_grad_returns_gradients_without_touching_grad():
    x = _var([1.0, 2.0])
    w = _var([3.0, 4.0])
    y = F.sum(x * w)
    gx, = grad([y], [x])
    numpy.testing.assert_array_equal(gx.array, w.array)
    assert x.grad is None and w.grad is None


def test_grad_of_an_intermediate_variable():
    x = _var([1.0, 2.0])
    h = x * 3.0
    y = F.sum(h * h)
    gh, gx = grad([y], [h, x])
    numpy.testing.assert_array_equal(gh.array, 2 * h.array)
    numpy.testing.assert_array_equal(gx.array, 18 * x.array)


def test_grad_of_an_unconnected_input_is_none():
    x, z = _var([1.0]), _var([2.0])
    assert grad([F.sum(x * 2.0)], [z]) == [None]


def test_grad_only_visits_the_needed_subgraph():
    calls = []

    class Count(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1.0,

        def backward(self, indexes, grad_outputs):
            calls.append(1)
            return grad_outputs

    a, b = _var([1.0]), _var([2.0])
    ha, = Count().apply((a,))
    y = F.sum(ha * b)
    grad([y], [b])
    assert calls == []


def test_grad_with_grad_outputs_and_grad_inputs_and_set_grad():
    x = _var([1.0, 2.0])
    y = x * 2.0
    gx, = grad([y], [x], grad_outputs=[numpy.array([1.0, 10.0])],
               grad_inputs=[numpy.array([0.5, 0.5])], set_grad=True)
    numpy.testing.assert_array_equal(gx.array, [2.5, 20.5])
    assert x.grad_var is gx


def test_grad_argument_errors():
    x = _var([1.0, 2.0])
    y = x * 2.0
    with pytest.raises(TypeError, match='grad: outputs must be a sequence of Variables'):
        grad(y, [x])
    with pytest.raises(TypeError, match=r'grad: inputs\[0\] must be a Variable'):
        grad([y], [x.array])
    with pytest.raises(ValueError, match='grad: an output has shape'):
        grad([y], [x])
    with pytest.raises(ValueError, match='grad: grad_outputs must have 1 entries'):
        grad([y], [x], grad_outputs=[])


def test_hessian_vector_product_with_grad():
    x = _var([1.0, 2.0, 3.0])
    y = F.sum(x * x * x)
    gx, = grad([y], [x], enable_double_backprop=True)
    v = numpy.array([1.0, 0.0, -1.0])
    hv, = grad([F.sum(gx * v)], [x])
    numpy.testing.assert_allclose(hv.array, 6 * x.array * v)


def test_gradient_penalty_pattern_reuses_the_graph():
    x = _var([1.0, 2.0])
    y = F.sum(x * x * x)
    gx, = grad([y], [x], enable_double_backprop=True)
    loss = y + F.sum(gx * gx)
    loss.backward()
    expected = 3 * x.array ** 2 + 2 * (3 * x.array ** 2) * 6 * x.array
    numpy.testing.assert_allclose(x.grad, expected)


def _mlp(n_layers, width, batch):
    rng = numpy.random.RandomState(0)
    params = [(Variable(rng.normal(0, width ** -0.5, (width, width)).astype(numpy.float32)),
               Variable(numpy.zeros(width, numpy.float32))) for _ in range(n_layers)]
    x = Variable(rng.normal(size=(batch, width)).astype(numpy.float32))
    return x, params


def test_backward_frees_each_activation_once_its_gradient_is_computed():
    n_layers, width, batch = 100, 64, 16
    x, params = _mlp(n_layers, width, batch)
    activations = []
    alive_when_reached = {}

    class Probe(FunctionNode):
        """Identity that records, during backward, how many activations are still alive."""

        def __init__(self, layer):
            self.layer = layer

        def forward(self, inputs):
            return inputs[0],

        def backward(self, indexes, grad_outputs):
            alive_when_reached[self.layer] = sum(ref() is not None for ref in activations)
            return grad_outputs

    h = x
    for i, (W, b) in enumerate(params):
        h = F.relu(F.linear(h, W, b))
        activations.append(weakref.ref(h.array))
        h, = Probe(i).apply((h,))
    loss = F.sum(h)
    del h
    gc.collect()
    assert sum(ref() is not None for ref in activations) == n_layers
    loss.backward()
    for layer, alive in alive_when_reached.items():
        assert alive <= layer + 2, (
            f'when backward reached layer {layer}, {alive} activations were alive; '
            f'those above it should have been freed')
    assert all(W.grad is not None for W, _ in params)


def test_integer_inputs_get_no_gradient():
    seen = []

    class Take(FunctionNode):
        def forward(self, inputs):
            x, t = inputs
            return x[t],

        def backward(self, indexes, grad_outputs):
            seen.append(indexes)
            return (grad_outputs[0] * 2.0,)

    x = _var([1.0, 2.0])
    t = Variable(numpy.array([1, 0]))
    y, = Take().apply((x, t))
    y.grad = numpy.ones(2)
    y.backward()
    assert seen == [(0,)]
    assert t.grad is None


def test_leaf_gradients_are_writable_and_not_shared():
    a, b = _var([1.0, 2.0]), _var([3.0, 4.0])
    F.sum(a + b).backward()
    a.grad /= 2
    numpy.testing.assert_array_equal(b.grad, [1.0, 1.0])
    w = _var([1.0, 2.0, 3.0])
    F.sum(w).backward()
    assert w.grad.flags.writeable
    w.grad *= 3

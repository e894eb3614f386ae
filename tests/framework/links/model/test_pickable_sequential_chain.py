import numpy
import pytest

import framework.functions as F
import framework.links as L
from framework.testing.emulated_device import EmulatedArray


def _model():
    model = L.PickableSequentialChain()
    with model.init_scope():
        model.l1 = L.Linear(None, 5)
        model.l1_relu = F.relu
        model.l2 = L.Linear(None, 4)
        model.l2_relu = F.relu
        model.l3 = L.Linear(None, 3)
    return model


def _x():
    return numpy.random.RandomState(0).uniform(-1, 1, (2, 6)).astype(numpy.float32)


def test_layers_in_the_order_of_assignment():
    model = _model()
    assert model.layer_names == ['l1', 'l1_relu', 'l2', 'l2_relu', 'l3']
    assert [p for p, _ in model.namedparams()] == ['/l1/W', '/l1/b', '/l2/W', '/l2/b',
                                                   '/l3/W', '/l3/b']
    model.not_a_layer = 3
    assert model.pick is None and 'not_a_layer' not in model.layer_names


def test_pick():
    model = _model()
    x = _x()
    y = model(x)
    h1 = F.relu(model.l1(x))
    h2 = F.relu(model.l2(h1))
    numpy.testing.assert_allclose(y.array, model.l3(h2).array)
    model.pick = 'l1_relu'
    assert model.pick == 'l1_relu'
    numpy.testing.assert_allclose(model(x).array, h1.array)
    model.pick = ('l2_relu', 'l1_relu')
    assert model.pick == ('l2_relu', 'l1_relu')
    a, b = model(x)
    numpy.testing.assert_allclose(a.array, h2.array)
    numpy.testing.assert_allclose(b.array, h1.array)
    model.pick = ['l3']
    assert isinstance(model(x), tuple)
    with pytest.raises(ValueError) as error:
        model.pick = 'l4'
    assert str(error.value) == "Invalid layer name 'l4'"  # ChainerCV's message, exactly
    assert error.value.__notes__ == [
        "PickableSequentialChain: the layers are ['l1', 'l1_relu', 'l2', 'l2_relu', 'l3']"]


def test_outputs_are_named_after_their_layers():
    model = _model()
    assert model(_x()).name == 'l3'
    model.pick = ('l2', 'l1_relu')
    assert [h.name for h in model(_x())] == ['l2', 'l1_relu']


def test_remove_unused():
    model = _model()
    model.remove_unused()
    assert len(model.layer_names) == 5
    model.pick = 'l2'
    model.remove_unused()
    assert model.layer_names == ['l1', 'l1_relu', 'l2']
    assert not hasattr(model, 'l3') and [p for p, _ in model.namedparams()] == [
        '/l1/W', '/l1/b', '/l2/W', '/l2/b']
    with pytest.raises(AttributeError, match="'l2': it is picked"):
        del model.l2


@pytest.mark.parametrize('mode', ['share', 'copy', 'init'])
def test_copy(mode):
    model = _model()
    model(_x())
    model.pick = ('l1', 'l3')
    copied = model.copy(mode)
    assert copied.layer_names == model.layer_names and copied.layer_names is not model.layer_names
    assert copied.pick == ('l1', 'l3')
    copied.pick = 'l2'
    assert model.pick == ('l1', 'l3')
    assert len(copied(_x()).shape) == 2


def test_emulated_device():
    model = _model().to_device('@emulated')
    y = model(model.device.send(_x()))
    assert isinstance(y.array, EmulatedArray) and isinstance(model.l3.W.array, EmulatedArray)

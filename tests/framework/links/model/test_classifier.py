"""L.Classifier: the loss and accuracy of a predictor, reported (Chainer's)."""

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import reporter


def _data():
    rng = numpy.random.RandomState(0)
    x = rng.normal(size=(5, 3)).astype(numpy.float32)
    t = numpy.array([0, 1, 2, 1, 0], numpy.int32)
    return x, t


def _log_softmax_loss(y, t):
    y = y - y.max(axis=1, keepdims=True)
    log_p = y - numpy.log(numpy.exp(y).sum(axis=1, keepdims=True))
    return -log_p[numpy.arange(len(t)), t].mean()


def _classifier(**kwargs):
    framework.random.seed(0)
    return L.Classifier(L.Linear(3, 3), **kwargs)


def test_loss_and_accuracy_are_computed_and_reported():
    model = _classifier()
    x, t = _data()
    rep = reporter.Reporter()
    rep.add_observer('main', model)
    observation = {}
    with rep.scope(observation):
        loss = model(x, t)
    y = x @ model.predictor.W.array.T + model.predictor.b.array
    numpy.testing.assert_allclose(loss.array, _log_softmax_loss(y, t), rtol=1e-5)
    expected_accuracy = (y.argmax(axis=1) == t).mean()
    assert sorted(observation) == ['main/accuracy', 'main/loss']
    numpy.testing.assert_allclose(observation['main/loss'].array, loss.array)
    numpy.testing.assert_allclose(observation['main/accuracy'].array, expected_accuracy)
    assert model.loss is loss
    numpy.testing.assert_allclose(model.y.array, y, rtol=1e-5)
    numpy.testing.assert_allclose(model.accuracy.array, expected_accuracy)


def test_gradients_flow_to_the_predictor():
    model = _classifier()
    model(*_data()).backward()
    assert model.predictor.W.grad is not None
    assert sorted(name for name, _ in model.namedparams()) == ['/predictor/W', '/predictor/b']


def test_compute_accuracy_false_reports_the_loss_only():
    model = _classifier()
    model.compute_accuracy = False
    observation = {}
    rep = reporter.Reporter()
    rep.add_observer('main', model)
    with rep.scope(observation):
        model(*_data())
    assert sorted(observation) == ['main/loss']
    assert model.accuracy is None


def test_custom_loss_and_accuracy_functions():
    calls = []

    def lossfun(y, t):
        calls.append('loss')
        return F.sum(y)

    def accfun(y, t):
        calls.append('acc')
        return F.sum(y * 0)

    model = _classifier(lossfun=lossfun, accfun=accfun)
    x, t = _data()
    loss = model(x, t)
    assert calls == ['loss', 'acc']
    numpy.testing.assert_allclose(loss.array, model.y.array.sum(), rtol=1e-5)


@pytest.mark.parametrize('label_key', [0, 1, -2])
def test_int_label_key_picks_a_positional_argument(label_key):
    seen = {}

    class TwoInputs(framework.Chain):
        def forward(self, a, b):
            seen['args'] = (a, b)
            return F.concat((a, b), axis=1)

    model = L.Classifier(TwoInputs(), lossfun=lambda y, t: F.sum(y), accfun=lambda y, t: y,
                         label_key=label_key)
    model.compute_accuracy = False
    arrays = [numpy.full((2, 1), i, numpy.float32) for i in range(3)]
    model(*arrays)
    rest = arrays[:label_key % 3] + arrays[label_key % 3 + 1:]
    assert [a is r for a, r in zip(seen['args'], rest)] == [True, True]


def test_str_label_key_picks_a_keyword_argument():
    x, t = _data()
    loss = _classifier(label_key='t')(x, t=t)
    numpy.testing.assert_allclose(loss.array, _classifier()(x, t).array)


def test_bad_label_keys():
    with pytest.raises(TypeError, match='label_key must be an int or a str'):
        L.Classifier(L.Linear(3, 3), label_key=1.5)
    x, t = _data()
    with pytest.raises(ValueError, match='out of bounds'):
        _classifier(label_key=2)(x, t)
    with pytest.raises(ValueError, match="label key 'label' is not among"):
        _classifier(label_key='label')(x, t=t)


def test_classifier_is_exported():
    assert L.Classifier.compute_accuracy is True

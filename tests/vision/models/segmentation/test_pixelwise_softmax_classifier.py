"""PixelwiseSoftmaxClassifier: the weighted pixel-wise softmax cross entropy, reported, with
ignored pixels, and refused label maps."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.links as L
from framework import reporter as reporter_module
from framework.serializers import save_npz
from vision.models import PixelwiseSoftmaxClassifier


def _predictor():
    numpy.random.seed(0)
    framework.random.seed(0)
    return L.Convolution2D(2, 3, 1)


def _batch():
    rng = numpy.random.RandomState(0)
    x = rng.standard_normal((2, 2, 4, 5)).astype(numpy.float32)
    t = rng.randint(-1, 3, (2, 4, 5)).astype(numpy.int32)
    return x, t


def _expected_loss(y, t, class_weight):
    log_p = y - numpy.log(numpy.exp(y).sum(axis=1, keepdims=True))
    kept = t != -1
    n, h, w = numpy.nonzero(kept)
    losses = -log_p[n, t[kept], h, w] * class_weight[t[kept]]
    return losses.sum() / kept.sum()


@pytest.mark.parametrize('class_weight', [None, [0.5, 2.0, 1.5]])
def test_loss_is_the_weighted_mean_over_the_pixels_not_ignored(class_weight):
    model = PixelwiseSoftmaxClassifier(_predictor(), class_weight=class_weight)
    x, t = _batch()
    reporter, observation = reporter_module.Reporter(), {}
    reporter.add_observer('main', model)
    with reporter.scope(observation):
        loss = model(x, t)
    weights = numpy.ones(3) if class_weight is None else numpy.asarray(class_weight)
    expected = _expected_loss(model.y.array.astype(numpy.float64), t, weights)
    assert loss.shape == () and loss.dtype == numpy.float32
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-5)
    assert model.loss is loss
    numpy.testing.assert_array_equal(observation['main/loss'].array, loss.array)
    loss.backward()
    assert numpy.abs(model.predictor.W.grad).sum() > 0


def test_another_ignore_label():
    model = PixelwiseSoftmaxClassifier(_predictor(), ignore_label=255)
    x, t = _batch()
    t255 = numpy.where(t == -1, 255, t).astype(numpy.int32)
    expected = PixelwiseSoftmaxClassifier(_predictor())(x, t).array
    numpy.testing.assert_allclose(model(x, t255).array, expected, rtol=1e-6)


def test_class_weight_is_a_persistent_float32_array(tmp_path):
    model = PixelwiseSoftmaxClassifier(_predictor(), class_weight=(1, 2, 3))
    assert model.class_weight.dtype == numpy.float32
    assert dict(model.namedpersistents())['/class_weight'] is model.class_weight
    save_npz(tmp_path / 'chain.npz', model)
    with numpy.load(tmp_path / 'chain.npz') as f:
        numpy.testing.assert_array_equal(f['class_weight'], [1, 2, 3])
    with pytest.raises(ValueError, match=r'class_weight must have shape \(n_class,\)'):
        PixelwiseSoftmaxClassifier(_predictor(), class_weight=[[1, 2, 3]])


@pytest.mark.parametrize('bad', [3, -2])
def test_labels_outside_the_classes_are_refused_with_the_sample(bad):
    model = PixelwiseSoftmaxClassifier(_predictor())
    x, t = _batch()
    t[1, 2, 3] = bad
    with pytest.raises(ValueError, match=rf'labels in \[0, 3\) or ignore_label \(-1\), but '
                                         rf'sample 1 holds {bad} at \(2, 3\)'):
        model(x, t)

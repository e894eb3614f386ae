"""PSPNetTrainChain: the main and auxiliary losses, reported, and training through both."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.functions as F
from framework import optimizers
from framework import reporter as reporter_module
from vision.models import PSPNetResNet50
from vision.models.segmentation.pspnet import PSPNetTrainChain


def _chain(ignore_label=-1):
    numpy.random.seed(0)
    framework.random.seed(0)
    model = PSPNetResNet50(n_class=3, input_size=48, base_channels=2)
    return PSPNetTrainChain(model, ignore_label=ignore_label)


def _batch():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-100, 100, (2, 3, 48, 48)).astype(numpy.float32)
    t = rng.randint(-1, 3, (2, 48, 48)).astype(numpy.int32)
    return x, t


def test_loss_is_the_main_loss_and_four_tenths_of_the_auxiliary_one():
    chain = _chain()
    x, t = _batch()
    reporter, observation = reporter_module.Reporter(), {}
    reporter.add_observer('main', chain)
    with framework.using_config('train', False), reporter.scope(observation):
        loss = chain(x, t)
        main = F.softmax_cross_entropy(chain.model(x), t).array
        res4, _ = chain.model.extractor(x)
        aux = F.softmax_cross_entropy(
            F.resize_images(chain.aux_conv2(chain.aux_conv1(res4)), (48, 48)), t).array
    assert chain.aux_conv1.conv.W.shape == (16, 32, 3, 3)  # to half res4's 32 channels
    numpy.testing.assert_allclose(observation['main/main_loss'].array, main, rtol=1e-5)
    numpy.testing.assert_allclose(observation['main/aux_loss'].array, aux, rtol=1e-5)
    numpy.testing.assert_allclose(loss.array, main + 0.4 * aux, rtol=1e-5)
    numpy.testing.assert_array_equal(observation['main/loss'].array, loss.array)


def test_training_reaches_every_parameter_and_lowers_the_loss():
    chain = _chain()
    optimizer = optimizers.MomentumSGD(lr=0.01)
    optimizer.setup(chain)
    x, t = _batch()
    losses = []
    for _ in range(4):
        chain.cleargrads()
        loss = chain(x, t)
        loss.backward()
        assert all(numpy.abs(p.grad).sum() > 0 for _, p in chain.namedparams())
        optimizer.update()
        losses.append(float(loss.array))
    assert losses[-1] < losses[0]


def test_labels_outside_the_classes_are_refused_with_the_sample():
    chain = _chain(ignore_label=255)
    x, t = _batch()
    with pytest.raises(ValueError, match=r'PSPNetTrainChain: the label maps must hold labels in '
                                         r'\[0, 3\) or ignore_label \(255\), but sample 0 holds '
                                         r'-1'):
        chain(x, t)

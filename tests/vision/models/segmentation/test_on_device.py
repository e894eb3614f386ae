"""The segmentation models on the emulated device (which refuses implicit transfers and what
CuPy lacks, as a GPU would) and on a GPU: PSPNet's tiled and padded predict as on the CPU, and
the training loss with its class weights moved along."""

from __future__ import annotations

import numpy
import pytest

import framework.random
from framework import backend
from framework.testing import devices
from vision.models import PixelwiseSoftmaxClassifier, PSPNetResNet50, SegNetBasic


def _seeded():
    numpy.random.seed(0)
    framework.random.seed(0)


def _pspnet_labels(device):
    _seeded()
    model = PSPNetResNet50(n_class=3, input_size=48, base_channels=2)
    model.to_device(device)
    rng = numpy.random.RandomState(0)
    # tiles, and a grayscale image padded to input_size
    imgs = [rng.randint(0, 256, (3, 60, 75)).astype(numpy.float32),
            rng.randint(0, 256, (1, 30, 20)).astype(numpy.float32)]
    return model.predict(imgs)


@pytest.mark.parametrize('device', devices()[1:], ids=str)
def test_pspnet_predict_on_the_device_is_predict_on_the_cpu(device):
    expected = _pspnet_labels('@numpy')
    for label, want in zip(_pspnet_labels(device), expected, strict=True):
        assert type(label) is numpy.ndarray and label.dtype == numpy.int32
        numpy.testing.assert_array_equal(label, want)


def _loss(device):
    _seeded()
    model = PixelwiseSoftmaxClassifier(SegNetBasic(n_class=2, base_channels=2),
                                       class_weight=[1, 3])
    model.to_device(device)
    rng = numpy.random.RandomState(0)
    x = device.send(rng.uniform(0, 255, (2, 3, 16, 16)).astype(numpy.float32))
    t = device.send(rng.randint(-1, 2, (2, 16, 16)).astype(numpy.int32))
    loss = model(x, t)
    loss.backward()
    return float(backend.to_cpu(loss.array)), backend.to_cpu(model.predictor.conv1.W.grad)


@pytest.mark.parametrize('device', devices()[1:], ids=str)
def test_the_weighted_loss_on_the_device_is_the_cpus(device):
    loss, grad = _loss(device)
    expected_loss, expected_grad = _loss(backend.get_device('@numpy'))
    numpy.testing.assert_allclose(loss, expected_loss, rtol=1e-5)
    numpy.testing.assert_allclose(grad, expected_grad, rtol=1e-4, atol=1e-6)

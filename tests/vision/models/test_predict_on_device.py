"""``predict`` of small models on the emulated device and on a GPU: the same outputs as on the
CPU, as host arrays, with no implicit transfer (the emulated device refuses those as CuPy
does)."""

from __future__ import annotations

import numpy
import pytest

import framework.random
from framework.testing import devices
from vision.models import get_model

# name: constructor keyword arguments of a small random model
SMALL = {
    'faster_rcnn_vgg16': {'n_fg_class': 3, 'min_size': 64, 'max_size': 96, 'base_channels': 8},
    'mobilenet_v2': {'n_class': 5, 'depth_multiplier': 0.25},
    'mtcnn': {},
    'pspnet_resnet50': {'n_class': 3, 'input_size': 256, 'base_channels': 2},
    'resnet14': {'n_class': 5, 'base_channels': 8},
    'segnet_basic': {'n_class': 4, 'base_channels': 4},
    'ssd300': {'n_fg_class': 6, 'base_channels': 16},
    'yolo_v2': {'n_fg_class': 3, 'base_channels': 2, 'insize': 64},
    'yolo_v2_tiny': {'n_fg_class': 3, 'base_channels': 2, 'insize': 64},
    'yolo_v3': {'n_fg_class': 3, 'base_channels': 2, 'insize': 64},
}


def _predict(name, device):
    numpy.random.seed(0)
    framework.random.seed(0)
    model = get_model(name)(pretrained_model=None, **SMALL[name])
    model.to_device(device)
    rng = numpy.random.RandomState(0)
    imgs = [rng.randint(0, 256, (3, 96, 128)).astype(numpy.float32),
            rng.randint(0, 256, (3, 130, 90)).astype(numpy.float32)]
    outputs = model.predict(imgs)
    return outputs if isinstance(outputs, tuple) else (outputs,)


@pytest.mark.parametrize('device', devices()[1:], ids=str)
@pytest.mark.parametrize('name', sorted(SMALL))
def test_predict_on_a_device_is_predict_on_the_cpu(name, device):
    expected = _predict(name, '@numpy')
    actual = _predict(name, device)
    assert len(actual) == len(expected)
    for got, want in zip(actual, expected):
        assert len(got) == len(want)
        for a, e in zip(got, want):
            assert type(a) is numpy.ndarray and a.dtype == e.dtype and a.shape == e.shape
            numpy.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-4)

"""DeepLabV3ResNet50 and FCNResNet50, built small: the network's layout, the auxiliary head,
what predict resizes, the static graph, the errors."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.functions as F
from framework.testing.emulated_device import EmulatedDevice
from vision.models import DeepLabV3ResNet50, FCNResNet50, get_model
from vision.transforms import scale

CLASSES = (DeepLabV3ResNet50, FCNResNet50)


def _small(cls, **kwargs):
    numpy.random.seed(0)
    framework.random.seed(0)
    return cls(n_class=3, base_channels=2, **kwargs)


def _image(shape, seed=0):
    return numpy.random.RandomState(seed).uniform(0, 255, shape).astype(numpy.float32)


def _logits(model, x):
    with framework.using_config('train', False), framework.no_backprop_mode():
        return model((x - model.mean)[None])


def test_registered_as_semantic_segmentation_models():
    assert get_model('deeplabv3_resnet50') is DeepLabV3ResNet50
    assert get_model('fcn_resnet50') is FCNResNet50
    assert DeepLabV3ResNet50.task == FCNResNet50.task == 'semantic_segmentation'


@pytest.mark.parametrize('cls', CLASSES)
def test_the_head_sees_an_eighth_of_the_input_and_its_scores_come_back_to_it(cls):
    model = _small(cls, aux_loss=True)
    x = (_image((3, 33, 50)) - model.mean)[None]
    with framework.using_config('train', False):
        res4, res5 = model.extractor(x)
        out, aux = model.forward_with_aux(x)
        assert res4.shape == (1, 32, 5, 7) and res5.shape == (1, 64, 5, 7)
        assert out.shape == aux.shape == (1, 3, 33, 50)
        numpy.testing.assert_array_equal(out.array, model(x).array)


def test_deeplabv3_head_has_torchvisions_aspp():
    aspp = _small(DeepLabV3ResNet50).head.aspp
    assert aspp.rates == (12, 24, 36)
    assert [aspp[f'conv{i}'].conv.dilate for i in range(1, 4)] == [(12, 12), (24, 24), (36, 36)]
    assert aspp.project.conv.W.shape == (8, 40, 1, 1)
    assert aspp.conv0.bn.eps == aspp.pool_conv.bn.eps == 1e-5


@pytest.mark.parametrize('cls', CLASSES)
def test_predict_resizes_the_shorter_side_and_the_scores_back(cls):
    model = _small(cls, resize_size=24)
    img = _image((3, 30, 50))
    x = scale(img, 24)
    assert x.shape == (3, 24, 40)
    expected = F.resize_images(_logits(model, x), (30, 50), align_corners=False)
    label, = model.predict([img])
    assert label.dtype == numpy.int32
    numpy.testing.assert_array_equal(label, expected.array[0].argmax(axis=0))


def test_without_resize_size_the_network_sees_the_image_as_it_is():
    model = _small(FCNResNet50, resize_size=None)
    img = _image((3, 21, 35))
    label, = model.predict([img])
    numpy.testing.assert_array_equal(label, _logits(model, img).array[0].argmax(axis=0))


def test_grayscale_images_are_given_as_three_equal_channels():
    model = _small(DeepLabV3ResNet50, resize_size=16)
    gray = _image((1, 20, 30))
    label, = model.predict([gray])
    numpy.testing.assert_array_equal(label, model.predict([numpy.repeat(gray, 3, axis=0)])[0])


@pytest.mark.parametrize('cls', CLASSES)
def test_the_static_graph_gives_the_eager_scores(cls):
    model = _small(cls)
    x = (_image((3, 24, 32)) - model.mean)[None]
    eager = model.infer(x).array
    model.hybridize()
    # the graph folds the batch normalizations into the convolutions: other roundings
    numpy.testing.assert_allclose(model.infer(x).array, eager, rtol=1e-4,
                                  atol=1e-5 * numpy.abs(eager).max())


def test_predict_on_the_device_is_predict_on_the_cpu():
    # the emulated device refuses implicit transfers and what CuPy lacks, as a GPU would
    imgs = [_image((3, 30, 40)), _image((1, 20, 30), seed=1)]
    expected = _small(DeepLabV3ResNet50, resize_size=24).predict(imgs)
    model = _small(DeepLabV3ResNet50, resize_size=24)
    model.to_device(EmulatedDevice())
    for label, want in zip(model.predict(imgs), expected, strict=True):
        assert type(label) is numpy.ndarray and label.dtype == numpy.int32
        numpy.testing.assert_array_equal(label, want)


def test_errors():
    with pytest.raises(ValueError, match="fcn_resnet50.forward_with_aux: the model has no "
                                         "auxiliary head; build it with aux_loss=True"):
        _small(FCNResNet50).forward_with_aux(numpy.zeros((1, 3, 16, 16), numpy.float32))
    for bad in (0, 52.0, True):
        with pytest.raises(ValueError, match='deeplabv3_resnet50: resize_size must be a '
                                             f'positive int or None, but got {bad!r}'):
            _small(DeepLabV3ResNet50, resize_size=bad)
    with pytest.raises(ValueError, match='deeplabv3_resnet50: n_class must be given when '
                                         'pretrained_model is None'):
        DeepLabV3ResNet50()

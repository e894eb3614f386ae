"""Every registered model, built small with random weights, keeps the ``predict`` contract of
its task (as torchvision's ``test/test_models.py`` runs over every model it knows), and predicts
on the emulated device and on a GPU what it predicts on the CPU.

A model that the registry knows and :data:`SMALL` does not build fails
:func:`test_every_registered_model_is_covered`: a new model is tested by adding how to build
it small here.
"""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.random
from framework import initializers
from framework.graph import Hybridizable
from framework.testing import devices
from vision.models import get_model, list_models
from vision.utils.testing import (
    assert_is_classification_link,
    assert_is_detection_link,
    assert_is_instance_segmentation_link,
    assert_is_semantic_segmentation_link,
)

# name: (constructor keyword arguments of a small random model, number of classes)
SMALL = {
    # Xception65's widths are fixed: small images instead (scaled by 1/8, padded to 32x32)
    'deeplab_v3plus_xception65': ({'n_class': 3, 'min_input_size': 32, 'scales': (0.125,)}, 3),
    'deeplabv3_resnet50': ({'n_class': 3, 'base_channels': 2, 'resize_size': 48}, 3),
    # random FPN detectors of base_channels 8 score many thin boxes 1.0: ties that the
    # hybridized rounding reorders; at 4, few of them
    'faster_rcnn_fpn_resnet50': ({'n_fg_class': 3, 'min_size': 64, 'max_size': 96,
                                  'base_channels': 4}, 3),
    'faster_rcnn_fpn_resnet101': ({'n_fg_class': 3, 'min_size': 64, 'max_size': 96,
                                   'base_channels': 4}, 3),
    'faster_rcnn_vgg16': ({'n_fg_class': 3, 'min_size': 64, 'max_size': 96,
                           'base_channels': 8}, 3),
    # FCIS's random ResNet-101 scores one region 1.0, whatever the width (its features grow
    # to thousands): the contract holds all the same
    'fcis_resnet101': ({'n_fg_class': 3, 'min_size': 64, 'max_size': 96, 'base_channels': 4},
                       3),
    'fcn_resnet50': ({'n_class': 3, 'base_channels': 2, 'resize_size': 48}, 3),
    # ChainerCV's widths (no base_channels): small images instead; with He's initialization
    # the 33 residual blocks, whose batch normalizations keep their initial statistics, grow
    # the features past what the offsets' exp holds (NaN boxes): half its scale
    'light_head_rcnn_resnet101': ({'n_fg_class': 3, 'min_size': 64, 'max_size': 96,
                                   'resnet_initialW': initializers.HeNormal(scale=0.5)}, 3),
    'mask_rcnn_fpn_resnet50': ({'n_fg_class': 3, 'min_size': 64, 'max_size': 96,
                                'base_channels': 4}, 3),
    'mask_rcnn_fpn_resnet101': ({'n_fg_class': 3, 'min_size': 64, 'max_size': 96,
                                 'base_channels': 4}, 3),
    'mtcnn': ({}, 1),
    'mobilenet_v2': ({'n_class': 5, 'depth_multiplier': 0.25}, 5),
    'pspnet_resnet50': ({'n_class': 3, 'input_size': 256, 'base_channels': 2}, 3),
    'pspnet_resnet101': ({'n_class': 3, 'input_size': 256, 'base_channels': 2}, 3),
    'resnet14': ({'n_class': 5, 'base_channels': 8}, 5),
    'resnet50': ({'n_class': 5, 'base_channels': 8}, 5),
    'resnet101': ({'n_class': 5, 'base_channels': 8}, 5),
    'resnet152': ({'n_class': 5, 'base_channels': 8}, 5),
    'se_resnet50': ({'n_class': 5, 'base_channels': 8}, 5),
    'se_resnet101': ({'n_class': 5, 'base_channels': 8}, 5),
    # with He's initialization the 50 residual blocks grow the logits to 1e5 and saturate the
    # softmax, whose one-hot then follows a GPU's rounding (1e-3 of a logit): half its scale
    'se_resnet152': ({'n_class': 5, 'base_channels': 8,
                      'initialW': initializers.HeNormal(scale=0.5)}, 5),
    'se_resnext50': ({'n_class': 5, 'base_channels': 32}, 5),
    'se_resnext101': ({'n_class': 5, 'base_channels': 32}, 5),
    'segnet_basic': ({'n_class': 4, 'base_channels': 4}, 4),
    # random SSDs: with these class counts and widths no near-tied scores swap between eager
    # and hybridized runs ('evaluate' gives thousands of boxes); a slim SSD512 scores many
    # boxes nearly 1.0 in every class count tried, hence its full width
    'ssd300': ({'n_fg_class': 6, 'base_channels': 16}, 6),
    'ssd512': ({'n_fg_class': 7}, 7),
    'vgg16': ({'n_class': 5, 'base_channels': 8}, 5),
    'yolo_v2': ({'n_fg_class': 3, 'base_channels': 2, 'insize': 64}, 3),
    'yolo_v2_tiny': ({'n_fg_class': 3, 'base_channels': 2, 'insize': 64}, 3),
    'yolo_v3': ({'n_fg_class': 3, 'base_channels': 2, 'insize': 64}, 3),
    # registered by tests/vision/conftest.py
    'tiny_classifier_for_tests': ({'n_class': 5}, 5),
    'stub_detector_for_tests': ({}, 2),
    'stub_semantic_segmenter_for_tests': ({}, 2),
    'stub_instance_segmenter_for_tests': ({}, 2),
}

# Models whose small build still takes more than a few seconds to predict.
SLOW = {'deeplab_v3plus_xception65', 'faster_rcnn_fpn_resnet50', 'faster_rcnn_fpn_resnet101',
        'light_head_rcnn_resnet101', 'mask_rcnn_fpn_resnet50', 'mask_rcnn_fpn_resnet101',
        'pspnet_resnet50', 'pspnet_resnet101', 'resnet152', 'se_resnet152', 'se_resnext50',
        'se_resnext101', 'segnet_basic', 'ssd512'}

# Models whose hybridized boxes differ from the eager ones by more than the default atol: the
# FPN detectors decode proposals from anchors of up to 512 pixels, which turn the float32
# rounding of the offsets (1e-6) into 1e-3 pixels.
HYBRID_ATOL = {'faster_rcnn_fpn_resnet50': 1e-2, 'faster_rcnn_fpn_resnet101': 1e-2}

# Models whose masks may differ in a few pixels between eager and hybridized runs (or devices):
# a random mask head gives probabilities near the threshold 0.5 everywhere, so the rounding
# of the logits flips isolated pixels. The fraction of pixels of a mask that may differ.
MASK_FLIPS = {'mask_rcnn_fpn_resnet50': 1e-4, 'mask_rcnn_fpn_resnet101': 1e-4}

CONTRACTS = {
    'classification': assert_is_classification_link,
    'detection': assert_is_detection_link,
    'semantic_segmentation': assert_is_semantic_segmentation_link,
    'instance_segmentation': assert_is_instance_segmentation_link,
}


def _names():
    return [pytest.param(name, marks=pytest.mark.slow) if name in SLOW else name
            for name in list_models()]


def _build(name: str):
    kwargs, _ = SMALL[name]
    numpy.random.seed(0)
    framework.random.seed(0)  # the initializers' generator: the same weights every run
    return get_model(name)(pretrained_model=None, **kwargs)


def _images(seed: int) -> list[numpy.ndarray]:
    rng = numpy.random.RandomState(seed)
    return [rng.randint(0, 256, (3, 96, 128)).astype(numpy.float32),
            rng.randint(0, 256, (3, 130, 90)).astype(numpy.float32)]


def _assert_same_outputs(actual, expected, rtol=1e-5, atol=1e-5, mask_flips=0.) -> None:
    """Compares two predictions: a list of arrays per output (or one list); boolean arrays
    (masks) may differ in a fraction ``mask_flips`` of their elements."""
    if isinstance(expected, list):
        actual, expected = (actual,), (expected,)
    assert len(actual) == len(expected)
    for output, reference in zip(actual, expected):
        assert len(output) == len(reference)
        for a, e in zip(output, reference):
            assert a.dtype == e.dtype and a.shape == e.shape
            if a.dtype.kind == 'f':
                numpy.testing.assert_allclose(a, e, rtol=rtol, atol=atol)
            elif a.dtype == bool and mask_flips:
                assert (a != e).sum() <= mask_flips * a.size, (a != e).sum()
            else:
                numpy.testing.assert_array_equal(a, e)


def _assert_same_detections(actual, expected, rtol, atol) -> None:
    """Compares two detection predictions ``(bboxes, labels, scores)`` as sets per image and
    label: detections of equal scores may come in either order (a GPU's sort breaks ties its
    own way), so each expected detection must have its own counterpart, box and score within
    the tolerance."""
    for a_boxes, a_labels, a_scores, e_boxes, e_labels, e_scores in zip(*actual, *expected):
        numpy.testing.assert_array_equal(numpy.sort(a_labels), numpy.sort(e_labels))
        for label in numpy.unique(e_labels):
            a = numpy.column_stack((a_boxes[a_labels == label], a_scores[a_labels == label]))
            e = numpy.column_stack((e_boxes[e_labels == label], e_scores[e_labels == label]))
            close = numpy.all(numpy.abs(a[:, None] - e[None]) <= atol + rtol * numpy.abs(e),
                              axis=2)
            free = numpy.ones(len(a), bool)
            for j in range(len(e)):
                found = numpy.flatnonzero(close[:, j] & free)
                assert found.size, f'label {label}: no counterpart to the detection {e[j]}'
                free[found[0]] = False


def test_every_registered_model_is_covered():
    assert sorted(SMALL) == list_models(), (
        'every registered model must be built small in tests/vision/models/test_models.py '
        f'(SMALL): missing {sorted(set(list_models()) - set(SMALL))}, unknown '
        f'{sorted(set(SMALL) - set(list_models()))}')


@pytest.mark.parametrize('name', _names())
def test_predict_keeps_the_contract_of_the_task(name):
    model = _build(name)
    assert model.task in CONTRACTS
    CONTRACTS[model.task](model, SMALL[name][1])
    if hasattr(model, 'use_preset'):
        for preset in ('visualize', 'evaluate'):
            model.use_preset(preset)
            CONTRACTS[model.task](model, SMALL[name][1])


@pytest.mark.parametrize('name', _names())
def test_an_image_gives_what_it_gives_in_a_batch(name):
    model = _build(name)
    imgs = _images(1)
    batch = model.predict(imgs)
    for i, img in enumerate(imgs):
        alone = model.predict([img])
        in_batch = tuple([output[i]] for output in batch) if isinstance(batch, tuple) \
            else [batch[i]]
        _assert_same_outputs(alone, in_batch, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('name', _names())
def test_no_images_give_empty_lists(name):
    outputs = _build(name).predict([])
    for output in outputs if isinstance(outputs, tuple) else (outputs,):
        assert output == []


@pytest.mark.parametrize('name', _names())
def test_hybridized_predict_is_the_eager_one(name):
    model = _build(name)
    if not isinstance(model, Hybridizable):
        pytest.skip(f'{name} has no hybridize()')
    imgs = _images(2)
    eager = model.predict(imgs)
    model.hybridize()
    _assert_same_outputs(model.predict(imgs), eager, rtol=1e-4, atol=HYBRID_ATOL.get(name, 1e-5),
                         mask_flips=MASK_FLIPS.get(name, 0.))
    model.hybridize(False)
    _assert_same_outputs(model.predict(imgs), eager, rtol=0, atol=0)


@pytest.mark.parametrize('device', devices()[1:], ids=str)
@pytest.mark.parametrize('name', _names())
def test_predict_on_a_device_is_predict_on_the_cpu(name, device):
    """On the emulated device (which refuses implicit transfers and what CuPy lacks) and on a
    GPU: the CPU's outputs, as host arrays."""
    model = _build(name)
    if not isinstance(model, framework.Link):
        pytest.skip(f'{name} holds no arrays (a stub of the tests)')
    imgs = _images(3)
    expected = _build(name).predict(imgs)
    model.to_device(device)
    actual = model.predict(imgs)
    for output in actual if isinstance(actual, tuple) else (actual,):
        assert all(type(a) is numpy.ndarray for a in output)
    atol = max(1e-4, HYBRID_ATOL.get(name, 0))
    if model.task == 'detection' and len(actual) == 3:  # (MTCNN's have landmarks too)
        _assert_same_detections(actual, expected, rtol=1e-4, atol=atol)
    else:
        _assert_same_outputs(actual, expected, rtol=1e-4, atol=atol,
                             mask_flips=MASK_FLIPS.get(name, 0.))

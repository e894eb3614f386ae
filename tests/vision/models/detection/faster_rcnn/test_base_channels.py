"""Faster R-CNN VGG-16 of another width than the paper's (``base_channels``): the extractor,
the RPN and the head follow it, the names stay ChainerCV's."""

from __future__ import annotations

import numpy
import pytest

from vision.models import VGG16, FasterRCNNVGG16


@pytest.mark.slow
def test_every_layer_follows_the_width():
    slim = FasterRCNNVGG16(n_fg_class=3, base_channels=8, min_size=64, max_size=64)
    full = FasterRCNNVGG16(n_fg_class=3)
    slim_shapes = {name: p.shape for name, p in slim.namedparams()}
    full_shapes = {name: p.shape for name, p in full.namedparams()}
    assert slim_shapes.keys() == full_shapes.keys()
    assert slim_shapes['/extractor/conv1_1/conv/W'] == (8, 3, 3, 3)
    assert slim_shapes['/extractor/conv5_3/conv/W'] == (64, 64, 3, 3)
    assert slim_shapes['/rpn/conv1/W'] == (64, 64, 3, 3)
    assert slim_shapes['/head/fc6/W'] == (512, 64 * 7 * 7)
    assert slim_shapes['/head/fc7/W'] == (512, 512)
    assert slim_shapes['/head/cls_loc/W'] == (16, 512)
    assert slim_shapes['/head/score/W'] == (4, 512)
    bboxes, labels, scores = slim.predict([numpy.zeros((3, 40, 50), numpy.float32)])
    assert bboxes[0].shape[1:] == (4,) and labels[0].dtype == numpy.int32


def test_the_classifier_follows_the_width():
    model = VGG16(n_class=5, base_channels=16)
    model(numpy.zeros((1, 3, 32, 32), numpy.float32))
    assert model.conv5_3.conv.W.shape == (128, 128, 3, 3)
    assert model.fc6.W.shape == (1024, 128)
    assert model.fc8.W.shape == (5, 1024)


def test_imagenet_weights_are_of_the_papers_width():
    with pytest.raises(ValueError, match="faster_rcnn_vgg16: pretrained_model='imagenet' is "
                                         'VGG-16 of base_channels 64, but got base_channels=8'):
        FasterRCNNVGG16(n_fg_class=3, pretrained_model='imagenet', base_channels=8)


@pytest.mark.parametrize('base_channels', [0, True, 8.0])
def test_width_must_be_a_positive_int(base_channels):
    with pytest.raises(ValueError, match='VGG16: base_channels must be a positive int'):
        VGG16(n_class=2, base_channels=base_channels)

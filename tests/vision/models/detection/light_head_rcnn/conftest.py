"""Shared by the Light-Head R-CNN tests: a tiny Light-Head R-CNN from the family's parts (an
extractor of stride 16 giving two maps of 8 channels, the RPN, the ResNet-101 head on 8
channels with 2x2 bins), which runs the detector's logic on small images in milliseconds."""

from __future__ import annotations

import numpy
import pytest

import framework.functions as F
from framework.links import Chain, Convolution2D
from vision.models.detection.faster_rcnn import RegionProposalNetwork
from vision.models.detection.light_head_rcnn import LightHeadRCNN, LightHeadRCNNResNet101Head

MEAN = numpy.array([120., 110., 100.], numpy.float32)[:, None, None]


class TinyExtractor(Chain):
    """Two convolutions of stride 4 (the RPN's map), a third of stride 1 (the head's)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = Convolution2D(3, 8, 4, stride=4)
            self.conv2 = Convolution2D(8, 8, 4, stride=4)
            self.conv3 = Convolution2D(8, 8, 3, pad=1)

    def forward(self, x):
        h = F.relu(self.conv2(F.relu(self.conv1(x / 64.))))
        return h, F.relu(self.conv3(h))


class TinyLightHeadRCNN(LightHeadRCNN):
    """A tiny Light-Head R-CNN with weights drawn from ``RandomState(seed)``."""

    def __init__(self, n_fg_class=3, min_size=64, max_size=96, seed=0):
        rpn = RegionProposalNetwork(8, 8, anchor_scales=(1, 2), feat_stride=16,
                                    proposal_creator_params={'min_size': 0,
                                                             'n_test_post_nms': 20,
                                                             'n_train_post_nms': 40})
        head = LightHeadRCNNResNet101Head(n_fg_class + 1, roi_size=2, spatial_scale=1. / 16,
                                          in_channels=8)
        super().__init__(TinyExtractor(), rpn, head, MEAN, min_size=min_size,
                         max_size=max_size)
        rng = numpy.random.RandomState(seed)
        for _, param in sorted(self.namedparams()):
            param.array[...] = rng.standard_normal(param.array.shape) * 0.3 / numpy.sqrt(
                max(param.array[0].size, 1))


@pytest.fixture
def tiny_light_head_rcnn():
    """``tiny_light_head_rcnn(n_fg_class=3, **kwargs)``: a :class:`TinyLightHeadRCNN`."""
    return TinyLightHeadRCNN


def images(seed=0):
    """Two noise images of different sizes."""
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(0, 255, (3, 96, 128)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 130, 90)).astype(numpy.float32)]

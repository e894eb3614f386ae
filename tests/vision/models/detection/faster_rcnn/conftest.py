"""Shared by the Faster R-CNN tests: a tiny Faster R-CNN built from the family's parts (an
extractor of stride 16 with 8 channels, the RPN, a small RoI head), which runs the detector's
logic on small images in milliseconds."""

from __future__ import annotations

import numpy
import pytest

import framework.functions as F
from framework.graph.hybridizable import Hybridizable
from framework.links import Chain, Convolution2D, Linear
from vision.models.detection.faster_rcnn import (
    FasterRCNN,
    RegionProposalNetwork,
    VGG16RoIHead,
)
from vision.models.detection.faster_rcnn.pretrained import prepare_detector_weights

MEAN = numpy.array([120., 110., 100.], numpy.float32)[:, None, None]


class TinyExtractor(Chain):
    """Two convolutions: stride 4 then stride 4, 8 channels."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = Convolution2D(3, 8, 4, stride=4)
            self.conv2 = Convolution2D(8, 8, 4, stride=4)

    def forward(self, x):
        return F.relu(self.conv2(F.relu(self.conv1(x / 64.))))


class TinyRoIHead(Hybridizable, Chain):
    """:class:`VGG16RoIHead` with 8 channels, 2x2 pooling and one hidden layer of 16."""

    indices_and_rois = staticmethod(VGG16RoIHead.indices_and_rois)
    forward = VGG16RoIHead.forward
    hybridized_link = VGG16RoIHead.hybridized_link

    def __init__(self, n_class):
        super().__init__()
        with self.init_scope():
            self.fc = Linear(8 * 2 * 2, 16)
            self.cls_loc = Linear(16, n_class * 4)
            self.score = Linear(16, n_class)
        self.n_class = n_class

    def classify(self, x, indices_and_rois):
        pool = F.roi_pooling_2d(x, indices_and_rois, 2, 2, 1. / 16)
        h = F.relu(self.fc(pool))
        return self.cls_loc(h), self.score(h)


class TinyFasterRCNN(FasterRCNN):
    """A tiny Faster R-CNN that resolves its weights as :class:`FasterRCNNVGG16` does, under
    the name ``model_name`` (``'faster_rcnn_vgg16'``, for its manifest rows)."""

    model_name = 'faster_rcnn_vgg16'

    def __init__(self, n_fg_class=None, pretrained_model=None, min_size=64, max_size=96):
        n_fg_class, pretrained = prepare_detector_weights(self.model_name, n_fg_class,
                                                          pretrained_model, MEAN)
        rng = numpy.random.RandomState(0)
        rpn = RegionProposalNetwork(8, 8, anchor_scales=(1, 2), feat_stride=16,
                                    proposal_creator_params={'min_size': 4,
                                                             'n_test_post_nms': 20,
                                                             'n_train_post_nms': 40})
        super().__init__(TinyExtractor(), rpn, TinyRoIHead(n_fg_class + 1), MEAN,
                         min_size=min_size, max_size=max_size)
        for _, param in sorted(self.namedparams()):
            param.array[...] = rng.standard_normal(param.array.shape) * 0.3
        if pretrained is not None:
            pretrained.load(self)


@pytest.fixture
def tiny_faster_rcnn():
    """``tiny_faster_rcnn(n_fg_class=3, **kwargs)``: a :class:`TinyFasterRCNN`."""
    def build(n_fg_class=3, **kwargs):
        return TinyFasterRCNN(n_fg_class, **kwargs)
    return build

"""Shared by the SSD tests: a tiny SSD (two feature maps of a 32x32 input) whose head logic
runs in milliseconds."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework.links.link import Chain
from vision.models.detection.ssd import SSD, Multibox


class TinyExtractor(Chain):
    """Two feature maps, 4x4 (8 channels) and 2x2 (16 channels), of a 32x32 input."""

    insize = 32
    grids = (4, 2)

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 8, 3, stride=8, pad=1)
            self.conv2 = L.Convolution2D(8, 16, 3, stride=2, pad=1)

    def forward(self, x):
        h1 = F.relu(self.conv1(x))
        return [h1, F.relu(self.conv2(h1))]


def _tiny_ssd(n_fg_class: int = 3, seed: int = 0, **options) -> SSD:
    numpy.random.seed(seed)
    return SSD(TinyExtractor(), Multibox(n_fg_class + 1, ((2,), (2, 3)), in_channels=(8, 16)),
               steps=(8, 16), sizes=(8, 16, 32), mean=(123, 117, 104), **options)


def _tiny_voc_ssd300(pretrained_model=None, n_fg_class=None) -> SSD:
    """A stand-in for ``SSD300`` in the command-line and script tests: a tiny SSD for the 20
    VOC classes whose only weights are ``'voc0712'``; its boxes are its default boxes (no
    offsets), some of which cover objects of the VOC tests' images."""
    if pretrained_model != 'voc0712' or n_fg_class not in (None, 20):
        raise ValueError(f'no weights {pretrained_model!r} for {n_fg_class} classes')
    framework.random.seed(6)  # the initializers' generator
    model = _tiny_ssd(20, seed=6)
    for link in model.multibox.loc:
        for param in link.params():
            param.array[...] = 0
    return model


@pytest.fixture
def tiny_ssd():
    """``tiny_ssd(n_fg_class=3, seed=0, **options)``: a random tiny SSD, with the keyword
    options of :class:`SSD`."""
    return _tiny_ssd

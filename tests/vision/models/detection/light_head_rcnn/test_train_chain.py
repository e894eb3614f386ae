"""LightHeadRCNNTrainChain on the tiny model: Faster R-CNN's target creators (every region
for the head), a finite loss whose parts are reported, batches of several images, and a loss
that decreases over a few steps."""

from __future__ import annotations

import numpy
import pytest

import framework
from framework import optimizers
from vision.models.detection.faster_rcnn import AnchorTargetCreator, ProposalTargetCreator
from vision.models.detection.light_head_rcnn import LightHeadRCNNTrainChain

from .conftest import images


def _batch(model, n=1):
    xs, bboxes, labels, scales = [], [], [], []
    for img in images()[:1] * n:
        x = model.prepare(img)
        scale = x.shape[2] / img.shape[2]
        xs.append(x)
        bboxes.append(numpy.array([[10, 20, 60, 90], [30, 5, 90, 50]], numpy.float32) * scale)
        labels.append(numpy.array([0, 2], numpy.int32))
        scales.append(scale)
    return numpy.stack(xs), bboxes, labels, numpy.array(scales, numpy.float32)


def test_target_creators_are_faster_rcnns(tiny_light_head_rcnn):
    chain = LightHeadRCNNTrainChain(tiny_light_head_rcnn())
    assert isinstance(chain.anchor_target_creator, AnchorTargetCreator)
    assert isinstance(chain.proposal_target_creator, ProposalTargetCreator)
    assert chain.proposal_target_creator.n_sample is None
    assert (chain.rpn_sigma, chain.roi_sigma, chain.n_ohem_sample) == (3., 1., 256)


def test_loss_is_finite_and_differentiable(tiny_light_head_rcnn):
    model = tiny_light_head_rcnn()
    chain = LightHeadRCNNTrainChain(model, rng=numpy.random.default_rng(0))
    reporter = framework.Reporter()
    observation = {}
    reporter.add_observer('main', chain)
    with reporter.scope(observation):
        loss = chain(*_batch(model, 2))
    assert loss.shape == () and loss.dtype == numpy.float32 and numpy.isfinite(loss.array)
    parts = [observation[f'main/{k}'] for k in ('rpn_loc_loss', 'rpn_cls_loss',
                                                 'roi_loc_loss', 'roi_cls_loss')]
    numpy.testing.assert_allclose(sum(float(p.array) for p in parts), float(loss.array),
                                  rtol=1e-5)
    chain.cleargrads()
    loss.backward()
    for name, param in model.namedparams():
        assert param.grad is not None and numpy.isfinite(param.grad).all(), name


def test_one_entry_per_image(tiny_light_head_rcnn):
    model = tiny_light_head_rcnn()
    x, bboxes, labels, scales = _batch(model, 2)
    with pytest.raises(ValueError, match='labels must give one entry per image, 2, but '
                                         'gives 1'):
        LightHeadRCNNTrainChain(model)(x, bboxes, labels[:1], scales)


def test_loss_decreases(tiny_light_head_rcnn):
    model = tiny_light_head_rcnn()
    chain = LightHeadRCNNTrainChain(model)
    optimizer = optimizers.MomentumSGD(lr=0.01, momentum=0.9)
    optimizer.setup(chain)
    batch = _batch(model)
    losses = []
    for _ in range(8):
        chain.rng = numpy.random.default_rng(0)   # the same samples at every step
        loss = chain(*batch)
        chain.cleargrads()
        loss.backward()
        optimizer.update()
        losses.append(float(loss.array))
    assert losses[-1] < 0.8 * losses[0], losses

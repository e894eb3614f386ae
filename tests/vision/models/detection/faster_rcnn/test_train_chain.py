"""FasterRCNNTrainChain on the tiny model: a finite loss, reported parts, gradients for every
parameter, seeds."""

from __future__ import annotations

import numpy
import pytest

import framework
from vision.models.detection.faster_rcnn import FasterRCNNTrainChain


def _sample(model):
    rng = numpy.random.RandomState(0)
    img = rng.uniform(0, 255, (3, 96, 128)).astype(numpy.float32)
    x = model.prepare(img)[None]
    scale = x.shape[3] / img.shape[2]
    bbox = numpy.array([[[10, 20, 60, 90], [30, 5, 90, 50]]], numpy.float32) * scale
    label = numpy.array([[0, 2]], numpy.int32)
    return x, bbox, label, numpy.array([scale], numpy.float32)


def test_loss_is_finite_and_differentiable(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    chain = FasterRCNNTrainChain(model, rng=numpy.random.default_rng(0))
    reporter = framework.Reporter()
    observation = {}
    reporter.add_observer('main', chain)
    with reporter.scope(observation):
        loss = chain(*_sample(model))
    assert loss.shape == () and loss.dtype == numpy.float32 and numpy.isfinite(loss.array)
    parts = [observation[f'main/{k}'] for k in ('rpn_loc_loss', 'rpn_cls_loss',
                                                 'roi_loc_loss', 'roi_cls_loss')]
    numpy.testing.assert_allclose(sum(float(p.array) for p in parts), float(loss.array),
                                  rtol=1e-5)
    chain.cleargrads()
    loss.backward()
    for name, param in model.namedparams():
        assert param.grad is not None and numpy.isfinite(param.grad).all(), name
    assert any(numpy.abs(param.grad).max() > 0 for _, param in model.namedparams())


def test_a_seed_gives_the_same_loss(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    losses = [float(FasterRCNNTrainChain(model, rng=numpy.random.default_rng(5))(
        *_sample(model)).array) for _ in range(2)]
    assert losses[0] == losses[1]


def test_batches_of_one_image_only(tiny_faster_rcnn):
    model = tiny_faster_rcnn()
    x, bbox, label, scale = _sample(model)
    with pytest.raises(ValueError, match='the batch must hold one image, but bboxes holds 2'):
        FasterRCNNTrainChain(model)(numpy.concatenate((x, x)), numpy.concatenate((bbox, bbox)),
                                    numpy.concatenate((label, label)), scale)

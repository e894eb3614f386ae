"""MaskRCNNFPNTrainChain on a small MaskRCNNFPNResNet50: the FPN detector's loss plus the mask
head's, reported parts that add up, gradients for every parameter (zeros for the mask head
when no region is foreground), the same detector loss as FasterRCNNFPNTrainChain, and the same
loss on the emulated device."""

from __future__ import annotations

import numpy

import framework
import framework.random
from framework.testing.emulated_device import EmulatedDevice
from vision.models import MaskRCNNFPNResNet50
from vision.models.detection.fpn import FasterRCNNFPNTrainChain
from vision.models.instance.mask_rcnn import MaskRCNNFPNTrainChain

PARTS = ('loss/rpn/loc', 'loss/rpn/conf', 'loss/bbox_head/loc', 'loss/bbox_head/conf',
         'loss/mask')


def _model():
    numpy.random.seed(0)
    framework.random.seed(0)
    return MaskRCNNFPNResNet50(n_fg_class=3, min_size=64, max_size=96, base_channels=4)


def _batch(model):
    rng = numpy.random.RandomState(0)
    imgs = [rng.uniform(0, 255, (3, 96, 128)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 70, 50)).astype(numpy.float32)]
    x, scales = model.prepare(imgs)
    imgs = [x[0, :, :64, :85], x[1, :, :96, :68]]
    bboxes = [numpy.array([[10, 20, 60, 90], [30, 5, 90, 50]], numpy.float32) * scales[0],
              numpy.array([[5, 5, 40, 30]], numpy.float32) * scales[1]]
    labels = [numpy.array([0, 2], numpy.int32), numpy.array([1], numpy.int32)]
    masks = []
    for img, bbox in zip(imgs, bboxes):
        mask = numpy.zeros((len(bbox), *img.shape[1:]), bool)
        for m, (y_min, x_min, y_max, x_max) in zip(mask, bbox.astype(int)):
            m[y_min:y_max, x_min:(x_min + x_max) // 2] = True  # the left half of the box
        masks.append(mask)
    return imgs, bboxes, labels, masks


def _loss(chain, batch):
    reporter = framework.Reporter()
    observation = {}
    reporter.add_observer('main', chain)
    with reporter.scope(observation):
        loss = chain(*batch)
    return loss, {key[len('main/'):]: float(value.array) for key, value in observation.items()}


def test_the_loss_adds_the_mask_heads_to_the_detectors():
    model = _model()
    batch = _batch(model)
    loss, parts = _loss(MaskRCNNFPNTrainChain(model, rng=numpy.random.default_rng(0)), batch)
    assert loss.shape == () and loss.dtype == numpy.float32 and numpy.isfinite(loss.array)
    assert parts['loss/mask'] > 0
    numpy.testing.assert_allclose(sum(parts[k] for k in PARTS), parts['loss'], rtol=1e-5)
    _, detector_parts = _loss(FasterRCNNFPNTrainChain(model, rng=numpy.random.default_rng(0)),
                              batch[:3])
    for key in PARTS[:-1]:
        assert detector_parts[key] == parts[key]
    model.cleargrads()
    loss.backward()
    for name, param in model.namedparams():
        assert param.grad is not None and numpy.isfinite(param.grad).all(), name
    assert numpy.abs(model.mask_head.seg.W.grad).max() > 0


def test_without_foreground_the_mask_head_gets_zero_gradients():
    model = _model()
    imgs, _, _, _ = _batch(model)
    batch = (imgs, [numpy.zeros((0, 4), numpy.float32)] * 2, [numpy.zeros(0, numpy.int32)] * 2,
             [numpy.zeros((0, *img.shape[1:]), bool) for img in imgs])
    loss, parts = _loss(MaskRCNNFPNTrainChain(model, rng=numpy.random.default_rng(0)), batch)
    assert parts['loss/mask'] == 0 and numpy.isfinite(loss.array)
    model.cleargrads()
    loss.backward()
    for name, param in model.mask_head.namedparams():
        numpy.testing.assert_array_equal(param.grad, 0, err_msg=name)


def test_the_loss_on_the_emulated_device_is_the_loss_on_the_cpu():
    model = _model()
    batch = _batch(model)
    expected = MaskRCNNFPNTrainChain(model, rng=numpy.random.default_rng(1))(*batch)
    chain = MaskRCNNFPNTrainChain(model, rng=numpy.random.default_rng(1))
    chain.to_device(EmulatedDevice())
    loss = chain(*batch)
    numpy.testing.assert_allclose(float(loss.array), float(expected.array), rtol=1e-5)

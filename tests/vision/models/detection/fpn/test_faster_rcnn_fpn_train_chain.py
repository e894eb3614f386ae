"""FasterRCNNFPNTrainChain on a small FasterRCNNFPNResNet50: a finite loss whose reported parts
add up, gradients for every parameter, seeds, images of different sizes padded together, and
the same loss on the emulated device; torchvision's options."""

from __future__ import annotations

import numpy

import framework
import framework.random
from framework.testing.emulated_device import EmulatedDevice
from vision.models import FasterRCNNFPNResNet50
from vision.models.detection.fpn import FasterRCNNFPNTrainChain, pad_images
from vision.models.detection.fpn.torchvision_fpn import TORCHVISION_FPN_KWARGS

PARTS = ('loss/rpn/loc', 'loss/rpn/conf', 'loss/bbox_head/loc', 'loss/bbox_head/conf')


def _model():
    numpy.random.seed(0)
    framework.random.seed(0)
    return FasterRCNNFPNResNet50(n_fg_class=3, min_size=64, max_size=96, base_channels=8)


def _batch(model):
    rng = numpy.random.RandomState(0)
    imgs = [rng.uniform(0, 255, (3, 96, 128)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 70, 50)).astype(numpy.float32)]
    x, scales = model.prepare(imgs)
    imgs = [x[0, :, :64, :85], x[1, :, :96, :68]]
    bboxes = [numpy.array([[10, 20, 60, 90], [30, 5, 90, 50]], numpy.float32) * scales[0],
              numpy.array([[5, 5, 40, 30]], numpy.float32) * scales[1]]
    labels = [numpy.array([0, 2], numpy.int32), numpy.array([1], numpy.int32)]
    return imgs, bboxes, labels


def test_loss_is_finite_and_differentiable():
    model = _model()
    chain = FasterRCNNFPNTrainChain(model, rng=numpy.random.default_rng(0))
    reporter = framework.Reporter()
    observation = {}
    reporter.add_observer('main', chain)
    with reporter.scope(observation):
        loss = chain(*_batch(model))
    assert loss.shape == () and loss.dtype == numpy.float32 and numpy.isfinite(loss.array)
    numpy.testing.assert_allclose(sum(float(observation[f'main/{k}'].array) for k in PARTS),
                                  float(observation['main/loss'].array), rtol=1e-5)
    chain.cleargrads()
    loss.backward()
    for name, param in model.namedparams():
        assert param.grad is not None and numpy.isfinite(param.grad).all(), name
    assert numpy.abs(model.extractor.base.conv1.conv.W.grad).max() > 0
    assert numpy.abs(model.bbox_head.loc.W.grad).max() > 0


def test_a_seed_gives_the_same_loss():
    model = _model()
    losses = [float(FasterRCNNFPNTrainChain(model, rng=numpy.random.default_rng(5))(
        *_batch(model)).array) for _ in range(2)]
    assert losses[0] == losses[1]


def test_pad_images():
    x = pad_images([numpy.ones((3, 40, 70), numpy.float32),
                    numpy.full((3, 65, 10), 2, numpy.float32)], 32)
    assert x.shape == (2, 3, 96, 96) and x.dtype == numpy.float32
    assert x[0].sum() == 3 * 40 * 70 and x[1].sum() == 2 * 3 * 65 * 10
    assert (x[1, :, :65, :10] == 2).all()


def test_the_loss_on_the_emulated_device_is_the_loss_on_the_cpu():
    model = _model()
    batch = _batch(model)
    expected = FasterRCNNFPNTrainChain(model, rng=numpy.random.default_rng(1))(*batch)
    chain = FasterRCNNFPNTrainChain(model, rng=numpy.random.default_rng(1))
    chain.to_device(EmulatedDevice())
    loss = chain(*batch)
    numpy.testing.assert_allclose(float(loss.array), float(expected.array), rtol=1e-5)


def test_torchvisions_options_train():
    # torchvision's anchors need the input's size, its proposals the images' sizes.
    numpy.random.seed(0)
    framework.random.seed(0)
    model = FasterRCNNFPNResNet50(n_fg_class=3, min_size=64, max_size=96, base_channels=8,
                                  **TORCHVISION_FPN_KWARGS)
    loss = FasterRCNNFPNTrainChain(model, rng=numpy.random.default_rng(0))(*_batch(model))
    assert numpy.isfinite(loss.array)

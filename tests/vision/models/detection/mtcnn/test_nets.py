import numpy
import pytest

import framework.functions as F
from framework.config import no_backprop_mode
from vision.models.detection.mtcnn import ONet, PNet, RNet
from vision.models.detection.mtcnn.r_net import flatten_transposed


def test_pnet_maps_12x12_windows_with_ceil_mode_pooling():
    x = numpy.zeros((2, 3, 31, 12), dtype=numpy.float32)
    with no_backprop_mode():
        offset, prob = PNet()(x)
    # conv 29, max pooling (ceil mode) 15, conv 13, conv 11 rows; 1 column
    assert offset.shape == (2, 4, 11, 1) and prob.shape == (2, 2, 11, 1)
    numpy.testing.assert_allclose(prob.array.sum(axis=1), 1, rtol=1e-6)


@pytest.mark.parametrize('net, size, widths', [(RNet, 24, (4, 2)), (ONet, 48, (4, 10, 2))])
def test_refinement_nets_take_their_crop_size(net, size, widths):
    x = numpy.random.RandomState(0).uniform(-1, 1, (3, 3, size, size)).astype(numpy.float32)
    with no_backprop_mode():
        outputs = net()(x)
    assert [y.shape for y in outputs] == [(3, w) for w in widths]
    numpy.testing.assert_allclose(outputs[-1].array.sum(axis=1), 1, rtol=1e-6)


def test_dense_layers_read_features_in_width_height_channel_order():
    # facenet-pytorch flattens x.permute(0, 3, 2, 1): the feature at (c, h, w) of the last
    # convolution is column (w * H + h) * C + c of dense4's weight.
    numpy.random.seed(0)
    rnet = RNet()
    x = numpy.random.RandomState(1).uniform(-1, 1, (1, 3, 24, 24)).astype(numpy.float32)
    with no_backprop_mode():
        h = _pool(rnet.prelu1(rnet.conv1(x)))
        h = rnet.prelu3(rnet.conv3(_pool(rnet.prelu2(rnet.conv2(h)))))
        feature = h.array[0]
        expected = rnet.dense4.W.array @ feature.transpose(2, 1, 0).ravel() + rnet.dense4.b.array
        dense = rnet.dense4(flatten_transposed(h))
    numpy.testing.assert_allclose(dense.array[0], expected, rtol=1e-5, atol=1e-5)


def _pool(h):
    return F.max_pooling_2d(h, 3, 2, cover_all=True)

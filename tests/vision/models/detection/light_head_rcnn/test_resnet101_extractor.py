"""ResNet101Extractor: two maps at stride 16, statistics always used, conv1 and res2 frozen."""

from __future__ import annotations

import numpy

import framework
import framework.functions as F
from vision.models.detection.light_head_rcnn import ResNet101Extractor


def test_two_maps_at_stride_16_frozen_below_res3():
    extractor = ResNet101Extractor()
    assert [len(getattr(extractor, f'res{i}').layer_names) for i in range(2, 6)] == [3, 4, 23, 3]
    assert extractor.res5.a.conv2.conv.dilate == (2, 2)
    assert extractor.res5.b2.conv2.conv.dilate == (2, 2)
    assert extractor.res4.a.conv1.conv.stride == (2, 2)   # stride on the first 1x1
    assert extractor.conv1.bn.eps == 2e-5 and extractor.res2.a.conv1.bn.eps == 1e-5
    x = numpy.random.RandomState(0).uniform(-100, 100, (1, 3, 64, 96)).astype(numpy.float32)
    with framework.using_config('train', True):
        res4, res5 = extractor(x)
    assert res4.shape == (1, 1024, 4, 6) and res5.shape == (1, 2048, 4, 6)
    extractor.cleargrads()
    (F.sum(res4) + F.sum(res5)).backward()
    assert extractor.conv1.conv.W.grad is None and extractor.res2.a.conv1.conv.W.grad is None
    assert numpy.abs(extractor.res3.a.conv1.conv.W.grad).max() > 0
    # batch normalization with its statistics, in training too
    assert extractor.res3.a.conv1.bn.avg_mean.max() == 0
    with framework.using_config('train', False), framework.no_backprop_mode():
        numpy.testing.assert_allclose(extractor(x)[1].array, res5.array, rtol=1e-4,
                                      atol=1e-5 * numpy.abs(res5.array).max())

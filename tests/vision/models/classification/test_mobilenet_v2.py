import numpy
import pytest

from framework import initializers
from framework.serializers import NpzDeserializer
from vision.models import MobileNetV2
from vision.models.classification import TFConvolution2D
from vision.models.classification.mobilenet.tf_convolution_2d import tf_pad_amounts
from vision.weights import IMAGENET_TORCHVISION, get_converter

ZERO = {'initialW': initializers.Zero()}


def test_torchvision_weights_reproduce_torchvision(parity, torchvision_rule, model_shapes, run,
                                                   assert_parity):
    arrays = get_converter('torchvision_mobilenet_v2').convert(
        torchvision_rule('tv_mobilenet_v2_params.tsv'), IMAGENET_TORCHVISION)
    model = MobileNetV2(arch='torchvision', **ZERO)
    assert {k for k in arrays if not k.endswith('/N')} == model_shapes(model).keys()
    NpzDeserializer(arrays).load(model)
    model.pick = 'squeeze'
    x = (parity['input'] - IMAGENET_TORCHVISION.model_mean())[None]
    assert_parity(run(model, x), parity['tv_mobilenet_v2/logits'])


@pytest.mark.parametrize('size', [1, 2, 5, 7, 8, 224, 225])
@pytest.mark.parametrize('ksize', [1, 3, 5])
@pytest.mark.parametrize('stride', [1, 2, 3])
def test_tf_pad_amounts(size, ksize, stride):
    before, after = tf_pad_amounts(size, ksize, stride, 'SAME')
    # TensorFlow: out = ceil(in / stride); total padding as small as gives it; odd pixel after.
    out = -(-size // stride)
    assert (size + before + after - ksize) // stride + 1 == out
    assert after - before in (0, 1) and before + after == max((out - 1) * stride + ksize - size,
                                                              0)
    if size >= ksize:
        assert tf_pad_amounts(size, ksize, stride, 'VALID') == (0, 0)


@pytest.mark.parametrize('pad, shape', [('SAME', (1, 2, 4, 4)), ('VALID', (1, 2, 3, 3)),
                                        (1, (1, 2, 4, 4))])
def test_tf_convolution_2d(pad, shape, run):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (1, 3, 8, 8)).astype(numpy.float32)
    conv = TFConvolution2D(3, 2, 3, stride=2, pad=pad)
    y = run(conv, x)
    assert y.shape == shape
    before = {'SAME': (0, 1), 'VALID': (0, 0), 1: (1, 1)}[pad]
    padded = numpy.pad(x, ((0, 0), (0, 0), before, before))
    W, b = conv.W.array, conv.b.array
    for i in range(shape[2]):
        for j in range(shape[3]):
            window = padded[0, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3]
            numpy.testing.assert_allclose(y[0, :, i, j], (W * window).sum(axis=(1, 2, 3)) + b,
                                          rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('pad, shape', [('SAME', (1, 2, 4, 4)), ('VALID', (1, 2, 3, 3))])
def test_tf_convolution_2d_infers_in_channels(pad, shape):
    x = numpy.zeros((1, 3, 8, 8), numpy.float32)
    for conv in (TFConvolution2D(None, 2, 3, stride=2, pad=pad),
                 TFConvolution2D(2, 3, stride=2, pad=pad)):
        assert conv(x).shape == shape
        assert conv.W.shape == (2, 3, 3, 3)


def test_chainercv_names(model_shapes):
    model = MobileNetV2(**ZERO)
    shapes = model_shapes(model)
    assert model.arch == 'tf' and model.n_class == 1000
    assert model.layer_names == (['conv', 'expanded_conv']
                                 + [f'expanded_conv_{i}' for i in range(1, 17)]
                                 + ['conv1', 'global_average_pool', 'logits_conv', 'squeeze',
                                    'softmax'])
    assert shapes['conv/conv/conv/W'] == (32, 3, 3, 3)
    assert 'expanded_conv/expand/conv/conv/W' not in shapes
    assert shapes['expanded_conv/depthwise/conv/conv/W'] == (32, 1, 3, 3)
    assert shapes['expanded_conv_1/expand/conv/conv/W'] == (96, 16, 1, 1)
    assert shapes['expanded_conv_16/project/bn/avg_var'] == (320,)
    assert shapes['logits_conv/conv/W'] == (1000, 1280, 1, 1)
    assert model.conv.bn.eps == 0.001 and model.conv.bn.decay == 0.999


@pytest.mark.parametrize('depth_multiplier, first, last', [(1.4, 48, 1792), (0.5, 16, 1280)])
def test_depth_multiplier(depth_multiplier, first, last, run):
    model = MobileNetV2(n_class=3, depth_multiplier=depth_multiplier, arch='torchvision',
                        **ZERO)
    assert model.conv.conv.conv.W.shape[0] == first
    assert model.conv1.conv.conv.W.shape[0] == last
    assert model.conv.bn.eps == 1e-5
    model.pick = ('expanded_conv_5', 'softmax')
    feature, prob = run(model, numpy.zeros((1, 3, 64, 64), numpy.float32))
    assert feature.shape == (1, model.expanded_conv_5.project.conv.conv.W.shape[0], 8, 8)
    numpy.testing.assert_allclose(prob, numpy.full((1, 3), 1 / 3, numpy.float32), rtol=1e-6)


def test_thousand_categories_mode(run):
    rng = numpy.random.RandomState(0)
    bias = rng.uniform(-1, 1, 1001).astype(numpy.float32)
    full = MobileNetV2(n_class=1001, initial_bias=bias, **ZERO)
    model = MobileNetV2(n_class=1001, initial_bias=bias, thousand_categories_mode=True, **ZERO)
    assert model.n_class == 1000 and model.logits_conv.W.shape == (1000, 1280, 1, 1)
    numpy.testing.assert_array_equal(model.logits_conv.b.array, full.logits_conv.b.array[1:])
    model.pick = 'squeeze'
    assert run(model, numpy.zeros((1, 3, 32, 32), numpy.float32)).shape == (1, 1000)


def test_bad_arguments():
    with pytest.raises(ValueError, match='MobileNetV2: depth_multiplier must be greater than '
                                         '0, but got 0'):
        MobileNetV2(depth_multiplier=0)
    with pytest.raises(ValueError, match="MobileNetV2: arch must be one of"):
        MobileNetV2(arch='caffe')
    with pytest.raises(ValueError, match="TFConvolution2D: pad must be an int, 'SAME' or "
                                         "'VALID', but got 'FULL'"):
        TFConvolution2D(3, 2, 3, pad='FULL')

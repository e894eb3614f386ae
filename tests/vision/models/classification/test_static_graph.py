"""The classifiers compiled into static graphs (``framework.graph.compile``) compute what they
compute eagerly in inference, layer by layer, with the batch normalizations and residual sums
fused into the convolutions. The weights and statistics are those of the parity rule (random,
of sensible scale, the statistics far from the identity)."""

import numpy
import pytest

from framework import graph
from framework.graph import ops
from vision.models import VGG16, MobileNetV2, ResNet50, SEResNet50, SEResNeXt50
from vision.utils.testing.parity import rule_array

MODELS = {
    'resnet50-fb': lambda: ResNet50(n_class=10, arch='fb'),
    'resnet50-he': lambda: ResNet50(n_class=10, arch='he'),
    'se-resnet50': lambda: SEResNet50(n_class=10),
    'se-resnext50': lambda: SEResNeXt50(n_class=10),
    'mobilenet-v2': lambda: MobileNetV2(n_class=10),
    'vgg16': lambda: VGG16(n_class=10),
}


def _fill_by_rule(model) -> None:
    """Every parameter and floating-point persistent of ``model`` by the parity rule."""
    for name, param in model.namedparams():
        param.array[...] = rule_array(name, param.shape, param.dtype)
    for name, value in model.namedpersistents():
        if isinstance(value, numpy.ndarray) and value.dtype.kind == 'f':
            value[...] = rule_array(name, value.shape, value.dtype)


def _outputs(result) -> tuple:
    return result if isinstance(result, tuple) else (result,)


@pytest.mark.parametrize('name, shape, pick', [
    ('mobilenet-v2', (2, 3, 64, 64), 'all'),
    ('mobilenet-v2', (1, 3, 64, 64), 'last'),
    ('resnet50-fb', (1, 3, 64, 64), 'all'),
    pytest.param('resnet50-fb', (2, 3, 224, 224), 'last', marks=pytest.mark.slow),
    pytest.param('resnet50-he', (1, 3, 64, 64), 'all', marks=pytest.mark.slow),
    pytest.param('resnet50-he', (1, 3, 224, 224), 'last', marks=pytest.mark.slow),
    pytest.param('se-resnet50', (1, 3, 64, 64), 'all', marks=pytest.mark.slow),
    pytest.param('se-resnet50', (1, 3, 224, 224), 'last', marks=pytest.mark.slow),
    pytest.param('se-resnext50', (2, 3, 64, 64), 'all', marks=pytest.mark.slow),
    pytest.param('vgg16', (1, 3, 64, 64), 'all', marks=pytest.mark.slow),
])
def test_compiled_classifier_computes_every_layer_as_eagerly(name, shape, pick, run):
    model = MODELS[name]()
    x = numpy.random.RandomState(0).uniform(-100, 100, shape).astype(numpy.float32)
    run(model, x)  # VGG16's fc6 takes its input size from the first call
    _fill_by_rule(model)
    model.pick = model.layer_names if pick == 'all' else model.layer_names[-1]
    expected = _outputs(run(model, x))
    fast = graph.compile(model)
    actual = _outputs(fast(x))
    assert len(actual) == len(expected)
    for layer, y, e in zip(_outputs(model.pick), actual, expected):
        assert (y.shape, y.dtype) == (e.shape, e.dtype), layer
        numpy.testing.assert_allclose(y.array, e, rtol=1e-5, atol=1e-5 * numpy.abs(e).max(),
                                      err_msg=layer)
    # Every batch normalization went into a convolution, and every residual sum but those of
    # squeeze-excitation blocks (their sum reads the channel-scaling node, not a convolution).
    kinds = {type(op) for op in fast.graph(x).ops}
    assert ops.Affine not in kinds
    assert (ops.Add in kinds) == name.startswith('se-')

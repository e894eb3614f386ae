import numpy
import pytest

from framework import initializers
from vision.models import (
    ResNet50,
    SEResNet50,
    SEResNet101,
    SEResNet152,
    SEResNeXt50,
    SEResNeXt101,
    get_model,
)

ZERO = {'initialW': initializers.Zero(), 'fc_kwargs': {'initialW': initializers.Zero()}}


@pytest.mark.parametrize('cls, name', [
    (SEResNet50, 'se_resnet50'), (SEResNet101, 'se_resnet101'), (SEResNet152, 'se_resnet152'),
    (SEResNeXt50, 'se_resnext50'), (SEResNeXt101, 'se_resnext101'),
])
def test_registered(cls, name):
    assert get_model(name) is cls and cls.model_name == name


def test_se_resnet_is_an_he_resnet_with_se_blocks(model_shapes):
    model = SEResNet50(**ZERO)
    plain = model_shapes(ResNet50(arch='he', **ZERO))
    shapes = model_shapes(model)
    se = {k: v for k, v in shapes.items() if '/se/' in k}
    # ChainerCV's names: one SEBlock (down, up) per bottleneck, reduction 16.
    assert se['res2/a/se/down/W'] == (16, 256) and se['res2/a/se/up/W'] == (256, 16)
    assert se['res5/b2/se/up/b'] == (2048,)
    assert len(se) == 4 * 16
    # conv1 of ChainerCV's SE-ResNet has no bias, unlike Kaiming He's ResNet-50.
    assert shapes.keys() - se.keys() == plain.keys() - {'conv1/conv/b'}
    assert model.res3.a.conv1.conv.stride == (2, 2)


def test_se_resnext_has_grouped_wider_bottlenecks(model_shapes):
    model = SEResNeXt50(**ZERO)
    shapes = model_shapes(model)
    assert model.res2.a.conv2.conv.groups == 32
    assert shapes['res2/a/conv2/conv/W'] == (128, 4, 3, 3)
    assert shapes['res5/a/conv1/conv/W'] == (1024, 1024, 1, 1)
    assert model.res3.a.conv2.conv.stride == (2, 2)
    assert len(model.res4.layer_names) == 6
    assert len(SEResNeXt101(**ZERO).res4.layer_names) == 23


@pytest.mark.parametrize('cls', [SEResNet50, SEResNeXt50])
def test_pick(cls, run):
    model = cls(n_class=5, **ZERO)
    assert model.layer_names == ['conv1', 'pool1', 'res2', 'res3', 'res4', 'res5', 'pool5',
                                 'fc6', 'prob']
    model.pick = ('res4', 'prob')
    res4, prob = run(model, numpy.zeros((1, 3, 64, 64), numpy.float32))
    assert res4.shape == (1, 1024, 4, 4)
    numpy.testing.assert_allclose(prob, numpy.full((1, 5), 0.2, numpy.float32))


def test_se_resnext_has_no_152():
    from vision.models.classification import SEResNeXt
    with pytest.raises(ValueError, match=r'SEResNeXt: n_layer must be one of \[50, 101\]'):
        SEResNeXt(152)


def test_bottleneck_wiring(run):
    """A bottleneck with a projection and an SE block is relu(se(conv3(conv2(conv1(x)))) +
    residual_conv(x)), its parts each applied on their own."""
    from vision.models.classification import Bottleneck
    block = Bottleneck(8, 4, 16, stride=2, groups=2, residual_conv=True, add_seblock=True)
    rng = numpy.random.RandomState(0)
    for _, param in block.namedparams():
        param.array[...] = rng.uniform(-1, 1, param.shape)
    x = rng.uniform(-1, 1, (2, 8, 6, 6)).astype(numpy.float32)
    branch = run(block.conv1, x)
    for part in (block.conv2, block.conv3, block.se):
        branch = run(part, branch)
    expected = numpy.maximum(branch + run(block.residual_conv, x), 0)
    numpy.testing.assert_allclose(run(block, x), expected, rtol=1e-6, atol=1e-6)
    assert block.conv2.conv.stride == (2, 2) and block.conv2.conv.groups == 2

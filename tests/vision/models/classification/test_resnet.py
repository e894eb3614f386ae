import numpy
import pytest

from framework import initializers
from framework.serializers import NpzDeserializer
from vision.models import (
    ResNet14,
    ResNet50,
    ResNet101,
    ResNet152,
    SEResNet50,
)
from vision.models.classification.resnet.torchvision_resnet import TORCHVISION_RESNET_KWARGS
from vision.weights import IMAGENET_TORCHVISION, get_converter

ZERO = {'initialW': initializers.Zero(), 'fc_kwargs': {'initialW': initializers.Zero()}}


def test_he_reproduces_chainercv(parity, load_chainercv_rule, run, assert_parity):
    model = ResNet50(arch='he', **ZERO)
    load_chainercv_rule(model, 'chainercv_resnet50_params.tsv')
    model.pick = ('fc6', 'prob')
    x = ((parity['input'] - 110) / 60)[None].astype(numpy.float32)
    fc6, prob = run(model, x)
    assert_parity(fc6, parity['chainercv_resnet50/fc6'])
    assert_parity(prob, parity['chainercv_resnet50/prob'])


def test_torchvision_weights_reproduce_torchvision(parity, torchvision_rule, model_shapes, run,
                                                   assert_parity):
    state = torchvision_rule('tv_resnet50_params.tsv')
    arrays = get_converter('torchvision_resnet').convert(state, IMAGENET_TORCHVISION)
    model = ResNet50(**TORCHVISION_RESNET_KWARGS, **ZERO)
    assert {k for k in arrays if not k.endswith('/N')} == model_shapes(model).keys()
    NpzDeserializer(arrays).load(model)
    model.pick = 'fc6'
    # torchvision's input is (img / 255 - mean) / std; the converter folded 1 / std into conv1.
    x = (parity['input'] - IMAGENET_TORCHVISION.model_mean())[None]
    assert_parity(run(model, x), parity['tv_resnet50/logits'])


@pytest.mark.parametrize('pick, shapes', [
    ('prob', ((2, 10),)),
    (('conv1', 'pool1', 'res2', 'res5', 'pool5', 'fc6'),
     ((2, 64, 32, 32), (2, 64, 16, 16), (2, 256, 16, 16), (2, 2048, 2, 2), (2, 2048),
      (2, 10))),
])
def test_pick_returns_intermediate_features(pick, shapes, run):
    model = ResNet50(n_class=10, **ZERO)
    model.pick = pick
    outputs = run(model, numpy.zeros((2, 3, 64, 64), numpy.float32))
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    assert tuple(y.shape for y in outputs) == shapes
    assert all(y.dtype == numpy.float32 for y in outputs)


def test_torchvision_pool1_pads():
    model = ResNet50(**TORCHVISION_RESNET_KWARGS, **ZERO)
    assert model.pool1.pad == 1 and not model.pool1.cover_all
    assert model.conv1.bn.eps == 1e-5
    default = ResNet50(**ZERO)
    assert default.pool1.pad == 0 and default.pool1.cover_all
    assert default.conv1.bn.eps == 2e-5


@pytest.mark.parametrize('arch, first, second', [('he', (2, 2), (1, 1)), ('fb', (1, 1), (2, 2))])
def test_arch_places_the_stride(arch, first, second):
    model = ResNet50(arch=arch, **ZERO)
    assert model.arch == arch
    block = model.res3.a
    assert block.conv1.conv.stride == first and block.conv2.conv.stride == second
    assert block.residual_conv.conv.stride == (2, 2)
    assert model.res3.b1.conv2.conv.stride == (1, 1)


@pytest.mark.parametrize('cls, arch, has_bias', [
    (ResNet50, 'he', True), (ResNet50, 'fb', False), (ResNet101, 'he', False),
])
def test_only_kaiming_he_resnet50_has_a_conv1_bias(cls, arch, has_bias):
    assert (cls(arch=arch, **ZERO).conv1.conv.b is not None) == has_bias


@pytest.mark.parametrize('cls, blocks', [(ResNet14, (1, 1, 1, 1)), (ResNet101, (3, 4, 23, 3)),
                                         (ResNet152, (3, 8, 36, 3))])
def test_depths(cls, blocks):
    model = cls(n_class=7, **ZERO)
    assert tuple(len(model[f'res{i}'].layer_names) for i in range(2, 6)) == blocks
    assert model.fc6.W.shape == (7, 2048)
    assert model.model_name == f'resnet{sum(blocks) * 3 + 2}'


def test_base_channels_scale_every_layer(run):
    model = ResNet50(n_class=3, base_channels=8, **ZERO)
    model.pick = ('conv1', 'res2', 'res3', 'res5', 'fc6')
    outputs = run(model, numpy.zeros((2, 3, 64, 64), numpy.float32))
    assert tuple(y.shape for y in outputs) == (
        (2, 8, 32, 32), (2, 32, 16, 16), (2, 64, 8, 8), (2, 256, 2, 2), (2, 3))
    assert model.res4.b1.conv2.conv.W.shape == (32, 32, 3, 3)
    assert model.res5.a.residual_conv.conv.W.shape == (256, 128, 1, 1)


def test_stages_dilate_in_place_of_striding_as_torchvisions(run):
    # torchvision's _make_layer: a dilated stage keeps the dilation of the stage before in
    # its first bottleneck and doubles it in the others
    model = ResNet50(n_class=3, base_channels=8, replace_stride_with_dilation=(False, True, True),
                     **ZERO)
    model.pick = ('res3', 'res4', 'res5')
    outputs = run(model, numpy.zeros((1, 3, 64, 64), numpy.float32))
    assert tuple(y.shape for y in outputs) == ((1, 64, 8, 8), (1, 128, 8, 8), (1, 256, 8, 8))
    conv2 = [(model[f'res{i}'][name].conv2.conv.dilate, model[f'res{i}'][name].conv2.conv.pad)
             for i, name in ((3, 'a'), (3, 'b1'), (4, 'a'), (4, 'b1'), (5, 'a'), (5, 'b2'))]
    assert conv2 == [((1, 1), (1, 1))] * 3 + [((2, 2), (2, 2))] * 2 + [((4, 4), (4, 4))]
    assert model.res4.a.residual_conv.conv.stride == model.res5.a.conv2.conv.stride == (1, 1)
    with pytest.raises(ValueError, match=r'ResNet50: replace_stride_with_dilation must be '
                                         r'three bools \(for res3, res4 and res5\), but got '
                                         r'\(True, True\)'):
        ResNet50(replace_stride_with_dilation=(True, True), **ZERO)


def test_a_quarter_of_the_width_has_a_sixteenth_of_the_parameters_after_conv1():
    def n_conv_params(model):
        return sum(p.size for name, p in model.namedparams()
                   if name.endswith('conv/W') and not name.startswith('/conv1/'))
    assert n_conv_params(ResNet14(base_channels=16, **ZERO)) * 16 == n_conv_params(
        ResNet14(**ZERO))


def test_resnet26_has_two_bottlenecks_per_stage():
    from vision.models.classification import ResNet
    model = ResNet(26, n_class=4, base_channels=8, **ZERO)
    assert tuple(len(model[f'res{i}'].layer_names) for i in range(2, 6)) == (2, 2, 2, 2)


def test_bad_arguments():
    from vision.models.classification import ResNet
    with pytest.raises(ValueError, match=r'ResNet: n_layer must be one of '
                                         r'\[14, 26, 50, 101, 152\], but got 34'):
        ResNet(34)
    with pytest.raises(ValueError, match="ResNet50: arch must be 'fb' or 'he', but got 'x'"):
        ResNet50(arch='x')
    for bad in (0, 16.0, True):
        with pytest.raises(ValueError, match=f'ResNet14: base_channels must be a positive int, '
                                             f'but got {bad!r}'):
            ResNet14(base_channels=bad)
    with pytest.raises(TypeError, match=r"ResNet14: unexpected keyword arguments "
                                        r"\['norm_type'\] \(the architecture arguments are "
                                        r"\['arch'\]\)"):
        ResNet14(norm_type='gn')


@pytest.mark.parametrize('cls', [ResNet14, SEResNet50])
def test_preset_params_are_the_imagenet_arguments(cls):
    params = cls.preset_params['imagenet']
    assert params['n_class'] == 1000 and params['mean'].shape == (3, 1, 1)
    model = cls(pretrained_model=None, **dict(params, n_class=3), base_channels=4)
    assert model.fc6.out_size == 3 and model.mean is params['mean']
    assert cls.preset_params['imagenet']['n_class'] == 1000


def test_named_weights_fix_their_arguments():
    with pytest.raises(ValueError, match='resnet50: n_class must be 1000 for the weights '
                                         "'imagenet', but got 10"):
        ResNet50(pretrained_model='imagenet', n_class=10)
    with pytest.raises(ValueError, match="resnet14: no weight 'shapes' matches "
                                         'base_channels=32'):
        ResNet14(pretrained_model='shapes', base_channels=32)
    with pytest.raises(ValueError, match=r"no weight 'torchvision-imagenet1k-v1' matches "
                                         r"arch='he'"):
        ResNet50(pretrained_model='torchvision-imagenet1k-v1', arch='he')


def test_unknown_weight_name_lists_the_known_ones():
    with pytest.raises(ValueError) as error:
        ResNet50(pretrained_model='imagenett')
    message = str(error.value)
    assert "unknown pretrained_model 'imagenett'" in message
    for known in ("resnet50/imagenet (arch='fb')", "resnet50/imagenet (arch='he')",
                  'resnet50/torchvision-imagenet1k-v1', 'resnet50/torchvision-imagenet1k-v2'):
        assert known in message

import pathlib

import numpy
import pytest

from framework import initializers
from framework.serializers import NpzDeserializer
from vision.models import VGG16
from vision.utils.testing.parity import read_params_tsv
from vision.weights import IMAGENET_TORCHVISION, get_converter

DATA = pathlib.Path(__file__).resolve().parents[3] / 'data'
ZERO = {'initialW': initializers.Zero()}
LAYERS = ['conv1_1', 'conv1_2', 'pool1', 'conv2_1', 'conv2_2', 'pool2', 'conv3_1', 'conv3_2',
          'conv3_3', 'pool3', 'conv4_1', 'conv4_2', 'conv4_3', 'pool4', 'conv5_1', 'conv5_2',
          'conv5_3', 'pool5', 'fc6', 'fc6_relu', 'fc6_dropout', 'fc7', 'fc7_relu',
          'fc7_dropout', 'fc8', 'prob']


def test_names_and_shapes_are_chainercvs(model_shapes, chainercv_shapes):
    shapes = model_shapes(VGG16(**ZERO))
    expected = chainercv_shapes('chainercv_vgg16_params.tsv')
    assert shapes.keys() == expected.keys()
    # fc6 takes the flattened pool5: its input size comes with the first input (or the file).
    assert shapes.pop('fc6/W') is None
    assert shapes == {k: v for k, v in expected.items() if k != 'fc6/W'}


def test_torchvision_converter_maps_every_parameter(chainercv_shapes):
    state = {name: numpy.zeros(shape, dtype)
             for name, shape, dtype in read_params_tsv(DATA / 'tv_vgg16_params.tsv')}
    arrays = get_converter('torchvision_vgg16').convert(state, IMAGENET_TORCHVISION)
    assert {k: v.shape for k, v in arrays.items()} == chainercv_shapes(
        'chainercv_vgg16_params.tsv')


def test_pick(run):
    model = VGG16(n_class=10, **ZERO)
    assert model.layer_names == LAYERS
    model.pick = ('conv5_3', 'pool5', 'fc6', 'prob')
    conv5_3, pool5, fc6, prob = run(model, numpy.ones((2, 3, 32, 32), numpy.float32))
    assert conv5_3.shape == (2, 512, 2, 2) and pool5.shape == (2, 512, 1, 1)
    assert fc6.shape == (2, 4096) and model.fc6.W.shape == (4096, 512)
    numpy.testing.assert_allclose(prob, numpy.full((2, 10), 0.1, numpy.float32))


@pytest.mark.slow
def test_reproduces_chainercv(parity, load_chainercv_rule, run, assert_parity):
    model = VGG16(**ZERO)
    load_chainercv_rule(model, 'chainercv_vgg16_params.tsv')
    model.pick = ('fc8', 'prob')
    fc8, prob = run(model, ((parity['input'] - 110) / 60)[None].astype(numpy.float32))
    assert_parity(fc8, parity['chainercv_vgg16/fc8'])
    assert_parity(prob, parity['chainercv_vgg16/prob'])


@pytest.mark.slow
def test_torchvision_weights_reproduce_torchvision(parity, torchvision_rule, run,
                                                   assert_parity):
    arrays = get_converter('torchvision_vgg16').convert(torchvision_rule('tv_vgg16_params.tsv'),
                                                        IMAGENET_TORCHVISION)
    model = VGG16(**ZERO)
    NpzDeserializer(arrays).load(model)
    model.pick = 'fc8'
    x = (parity['input'] - IMAGENET_TORCHVISION.model_mean())[None]
    assert_parity(run(model, x), parity['tv_vgg16/logits'])


def test_preset_params_are_the_imagenet_arguments():
    params = VGG16.preset_params['imagenet']
    assert params['n_class'] == 1000 and params['mean'].shape == (3, 1, 1)
    model = VGG16(pretrained_model=None, initialW=initializers.Zero(), **dict(params, n_class=3))
    assert model.fc8.out_size == 3 and model.mean is params['mean']

"""Segmentation weights by name: fetched through the manifest, they fix n_class and the
constructor arguments of their row (base_channels, input_size); the weights of an extractor fill
it alone."""

from __future__ import annotations

import numpy
import pytest

import framework
from framework.serializers import save_npz
from vision.models import PSPNetResNet50, SegNetBasic
from vision.models.segmentation.pspnet import DilatedResNet

pytestmark = pytest.mark.filterwarnings('ignore:.*without a published hash')

_NO_MEAN = {'mean': [0, 0, 0], 'std': None, 'value_range': 255, 'resize': None,
            'crop_size': None, 'crop': None}


@pytest.fixture
def served(tmp_path, file_server, vision_home, weights_manifest, weight_row):
    """``serve(model, model_name, categories, model_kwargs)``: the model's weights in a
    manifest of one row, named ``'demo'``."""
    def serve(model, model_name, categories, model_kwargs):
        path = tmp_path / f'{model_name}.npz'
        save_npz(path, model)
        url = file_server.serve(f'/w/{model_name}.npz', path.read_bytes())
        weights_manifest([weight_row(model=model_name, model_kwargs=model_kwargs,
                                     source={'url': url}, n_class=model.n_class,
                                     categories=categories, preprocessing=_NO_MEAN)])
    return serve


def _seeded():
    numpy.random.seed(0)
    framework.random.seed(0)


def test_segnet_weights_by_name_fix_n_class_and_base_channels(served):
    _seeded()
    model = SegNetBasic(n_class=11, base_channels=2)
    served(model, 'segnet_basic', 'camvid', {'base_channels': 2})
    loaded = SegNetBasic(pretrained_model='demo')
    assert loaded.n_class == 11 and loaded.weight_spec.describe() == (
        'segnet_basic/demo (base_channels=2)')
    numpy.testing.assert_array_equal(loaded.conv3.W.array, model.conv3.W.array)
    with pytest.raises(ValueError, match="base_channels=4 contradicts the weights 'demo', made "
                                         'for base_channels=2'):
        SegNetBasic(pretrained_model='demo', base_channels=4)


def test_pspnet_weights_by_name_fix_n_class_input_size_and_base_channels(served):
    _seeded()
    model = PSPNetResNet50(n_class=19, input_size=48, base_channels=2)
    served(model, 'pspnet_resnet50', 'cityscapes', {'input_size': [48, 48], 'base_channels': 2})
    loaded = PSPNetResNet50(pretrained_model='demo')
    assert loaded.n_class == 19 and loaded.input_size == (48, 48)
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 40, 60)).astype(numpy.float32)
    numpy.testing.assert_array_equal(loaded.predict([img])[0], model.predict([img])[0])
    assert PSPNetResNet50(pretrained_model='demo', input_size=(48, 48)).input_size == (48, 48)
    with pytest.raises(ValueError, match=r"input_size=\(64, 64\) contradicts the weights 'demo'"):
        PSPNetResNet50(pretrained_model='demo', input_size=64)


def test_pspnet_imagenet_weights_fill_the_extractor_alone(served):
    _seeded()
    extractor = DilatedResNet(50, base_channels=2)
    extractor.n_class = None  # what the served row says: the weights of an extractor
    served(extractor, 'pspnet_resnet50', None, {'base_channels': 2})
    with pytest.raises(ValueError, match="n_class must be given with the weights 'demo', the "
                                         'weights of an extractor'):
        PSPNetResNet50(pretrained_model='demo')
    model = PSPNetResNet50(n_class=4, pretrained_model='demo', input_size=48)
    assert model.n_class == 4 and model.weight_spec.name == 'demo'
    numpy.testing.assert_array_equal(model.extractor.res5.b2.conv2.conv.W.array,
                                     extractor.res5.b2.conv2.conv.W.array)
    # the rest is initialized to be trained, not zero as under weights that fill it
    assert numpy.abs(model.head_conv2.W.array).sum() > 0
    assert numpy.abs(model.ppm[0].conv.W.array).sum() > 0

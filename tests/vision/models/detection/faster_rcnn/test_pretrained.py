"""Loading a Faster R-CNN's weights as FasterRCNNVGG16 does (prepare_detector_weights): from an
NPZ file saved from a model, by name from a manifest whose file the local server serves, and
the errors of an ``n_fg_class`` that contradicts them. The tiny model stands in for VGG-16."""

from __future__ import annotations

import hashlib

import numpy
import pytest

from framework.serializers import save_npz
from vision.models.detection.faster_rcnn import FasterRCNNVGG16


def _assert_same_params(a, b):
    params = dict(b.namedparams())
    for name, param in a.namedparams():
        numpy.testing.assert_array_equal(param.array, params[name].array)


def _perturbed(tiny_faster_rcnn, n_fg_class):
    model = tiny_faster_rcnn(n_fg_class)
    for _, param in model.namedparams():
        param.array += 1
    return model


def test_an_npz_file_fixes_n_fg_class(tiny_faster_rcnn, tmp_path):
    source = _perturbed(tiny_faster_rcnn, 4)
    save_npz(tmp_path / 'model.npz', source)
    model = tiny_faster_rcnn(None, pretrained_model=tmp_path / 'model.npz')
    assert model.n_class == 5
    _assert_same_params(model, source)
    with pytest.raises(ValueError, match=r'n_fg_class=3 contradicts the file .*model\.npz, '
                                         r'made for 4 foreground classes'):
        tiny_faster_rcnn(3, pretrained_model=tmp_path / 'model.npz')


def test_weights_by_name(tiny_faster_rcnn, tmp_path, file_server, vision_home,
                         weights_manifest, weight_row):
    source = _perturbed(tiny_faster_rcnn, 4)
    save_npz(tmp_path / 'model.npz', source)
    data = (tmp_path / 'model.npz').read_bytes()
    url = file_server.serve('/faster_rcnn_shapes.npz', data)
    weights_manifest([weight_row(
        model='faster_rcnn_vgg16', name='shapes', source={'url': url},
        sha256=hashlib.sha256(data).hexdigest(), converter='chainercv_npz', n_class=4,
        categories='shapes',
        preprocessing={'mean': [120, 110, 100], 'std': None, 'value_range': 255,
                       'resize': None, 'crop_size': None, 'crop': None})])
    model = tiny_faster_rcnn(None, pretrained_model='shapes')
    assert model.n_class == 5 and model.weight_spec.name == 'shapes'
    _assert_same_params(model, source)
    with pytest.raises(ValueError, match=r"n_fg_class=20 contradicts the weights 'shapes', "
                                         r'made for 4 foreground classes'):
        tiny_faster_rcnn(20, pretrained_model='shapes')
    with pytest.raises(ValueError, match="unknown pretrained_model 'voc99'"):
        tiny_faster_rcnn(None, pretrained_model='voc99')


def test_vgg16_checks_n_fg_class_before_building(tmp_path):
    with pytest.raises(ValueError, match=r'n_fg_class must be given when pretrained_model'):
        FasterRCNNVGG16()
    with pytest.raises(ValueError, match=r'n_fg_class must be a positive int, but got 0'):
        FasterRCNNVGG16(n_fg_class=0)
    numpy.savez(tmp_path / 'voc.npz', **{'head/score/b': numpy.zeros(21, numpy.float32)})
    with pytest.raises(ValueError, match=r'faster_rcnn_vgg16: n_fg_class=5 contradicts the '
                                         r'file .*voc\.npz, made for 20 foreground classes'):
        FasterRCNNVGG16(n_fg_class=5, pretrained_model=tmp_path / 'voc.npz')
    with pytest.raises(ValueError, match=r"n_fg_class must be given with "
                                         r"pretrained_model='imagenet'"):
        FasterRCNNVGG16(pretrained_model='imagenet')


@pytest.mark.parametrize('name', ['voc07', 'voc0712'])
def test_the_manifests_voc_weights_fix_20_classes(name):
    with pytest.raises(ValueError, match=rf"faster_rcnn_vgg16: n_fg_class=5 contradicts the "
                                         rf"weights '{name}', made for 20 foreground classes"):
        FasterRCNNVGG16(n_fg_class=5, pretrained_model=name)

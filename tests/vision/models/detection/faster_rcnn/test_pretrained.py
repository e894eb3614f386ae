"""Loading a Faster R-CNN's weights as FasterRCNNVGG16 does (prepare_detector_weights): from an
NPZ file saved from a model, by name from a manifest whose file the local server serves, and
the errors of an ``n_fg_class`` that contradicts them. The tiny model stands in for VGG-16."""

from __future__ import annotations

import hashlib
import io

import numpy
import pytest

from framework.serializers import save_npz
from vision.models.detection.faster_rcnn import FasterRCNNVGG16
from vision.weights import get_weight


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


def test_the_manifests_imagenet_weights_are_vgg16s():
    spec = get_weight('faster_rcnn_vgg16', 'imagenet')
    assert spec.source == get_weight('vgg16', 'imagenet').source
    assert spec.n_class is None and spec.label_names is None
    assert spec.converter == 'chainercv_npz' and spec.sha256 is spec.sha256_prefix is None
    assert [s['value'] for s in spec.scores] == [70.6]


def test_imagenet_weights_are_copied_as_chainercv(file_server, vision_home, weights_manifest,
                                                  weight_row):
    # VGG-16 of an eighth the width stands for the real one (the copy is the same at any
    # width), which the constructor refuses before fetching anything.
    model = FasterRCNNVGG16(n_fg_class=3, base_channels=8)
    rng = numpy.random.RandomState(0)
    # the file's keys and the parameters they go to
    layers = {'': ('/extractor/', model.extractor), 'fc6/': ('/head/fc6/', model.head.fc6),
              'fc7/': ('/head/fc7/', model.head.fc7)}
    arrays, copied = {}, {}
    for prefix, (path, link) in layers.items():
        for name, param in link.namedparams():
            value = rng.uniform(-1, 1, param.shape).astype(numpy.float32)
            arrays[prefix + name.lstrip('/')] = copied[path + name.lstrip('/')] = value
    arrays['fc8/W'] = numpy.zeros((10, 512), numpy.float32)  # VGG-16's classifier: unread
    buffer = io.BytesIO()
    numpy.savez(buffer, **arrays)
    data = buffer.getvalue()
    url = file_server.serve('/vgg16_imagenet.npz', data)
    weights_manifest([weight_row(
        model='faster_rcnn_vgg16', name='imagenet', source={'url': url},
        sha256=hashlib.sha256(data).hexdigest(), converter='chainercv_npz', n_class=None,
        categories=None)])
    with pytest.raises(ValueError, match=r"pretrained_model='imagenet' is VGG-16 of "
                                         r'base_channels 64, but got base_channels=8'):
        FasterRCNNVGG16(n_fg_class=3, pretrained_model='imagenet', base_channels=8)
    assert file_server.count('/vgg16_imagenet.npz') == 0
    before = {name: param.array.copy() for name, param in model.namedparams()}
    model._load_imagenet_vgg16(get_weight('faster_rcnn_vgg16', 'imagenet'))
    assert model.weight_spec.name == 'imagenet'
    assert len(copied) == 2 * 13 + 4
    for name, param in model.namedparams():
        numpy.testing.assert_array_equal(param.array, copied.get(name, before[name]),
                                         err_msg=name)

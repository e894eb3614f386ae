import json
import pathlib

import pytest

from vision import weights
from vision.models import list_models

REPO = pathlib.Path(__file__).resolve().parents[3]


def test_the_manifest_is_valid():
    specs = weights.load_manifest(REPO / 'weights_manifest.json')
    models = {s.model for s in specs}
    assert models == {name for name in list_models() if not name.endswith('_for_tests')}
    for spec in specs:
        assert spec.scores and spec.licence
        assert (spec.label_names is None if spec.n_class is None
                else spec.n_class == len(spec.label_names))
        if spec.converter.startswith('torchvision'):
            # torchvision names its files by the first digits of their sha256.
            assert spec.source['url'].endswith(f'-{spec.sha256_prefix}.pth')
            assert spec.preprocessing.std is not None
    assert weights.get_weight('resnet50', 'imagenet', arch='he').source['url'].endswith(
        'resnet50_imagenet_converted_2018_03_07.npz')
    mtcnn = weights.get_weight('mtcnn', 'facenet-pytorch')
    assert mtcnn.source['pypi'] == 'facenet-pytorch==2.6.0'
    assert sorted(mtcnn.source['files']) == [
        f'facenet_pytorch/data/{n}.pt' for n in ('onet', 'pnet', 'rnet')]
    assert mtcnn.converter == 'pytorch_checkpoint' and mtcnn.label_names == ('face',)
    names = {(s.model, s.name) for s in specs}
    for model in ('resnet50', 'resnet101', 'resnet152', 'vgg16', 'mobilenet_v2'):
        assert (model, 'imagenet') in names and (model, 'torchvision-imagenet1k-v1') in names


def test_imagenet_label_names():
    names = weights.label_names('imagenet')
    assert len(names) == len(set(names)) == 1000
    assert (names[0], names[207], names[817], names[999]) == (
        'tench', 'golden retriever', 'sports car', 'toilet tissue')
    assert weights.label_names('imagenet_with_background')[:2] == ('background', 'tench')


def test_coco_label_names_are_the_80_detection_categories():
    names = weights.label_names('coco')
    assert len(names) == len(set(names)) == 80
    assert (names[0], names[11], names[79]) == ('person', 'stop sign', 'toothbrush')


def test_voc_with_background_puts_background_before_the_20_classes():
    names = weights.label_names('voc_with_background')
    assert names == ('background',) + weights.label_names('voc')
    assert (len(names), names[15], names[20]) == (21, 'person', 'tvmonitor')


_PYPI = {'pypi': 'tinyweights==1.0', 'files': {'tinyweights/a.pt': 'a' * 64}}


@pytest.mark.parametrize('change, message', [
    ({'model': 'resnet5'}, "no model is named 'resnet5'"),
    ({'converter': 'caffe'}, "no converter is named 'caffe'"),
    ({'categories': 'kitti'}, "unknown categories 'kitti'"),
    ({'n_class': 10}, "n_class is 10, but 'imagenet' has 1000 categories"),
    ({'sha256': 'abc'}, "sha256 must be 64 lowercase hexadecimal digits, but got 'abc'"),
    ({'sha256_prefix': 'XYZ12345'}, 'sha256_prefix must be 8 to 63'),
    ({'source': {'ftp': 'x'}}, 'source must be'),
    ({'source': {'pypi': 'tinyweights==1.0', 'path': 'tinyweights/a.pt'}}, 'source must be'),
    ({'source': {**_PYPI, 'pypi': 'tinyweights>=1'}},
     'a package must be pinned as "package==version", but got \'tinyweights>=1\''),
    ({'source': {**_PYPI, 'files': {'../a.pt': 'a' * 64}}}, "but got '../a.pt'"),
    ({'source': {**_PYPI, 'files': {'tinyweights/a.pt': None}}},
     'the sha256 of tinyweights/a.pt must be 64 lowercase hexadecimal digits, but got None'),
    ({'source': _PYPI, 'sha256': 'a' * 64},
     "carry their own sha256, so the row's sha256 and sha256_prefix must be null"),
    ({'licence': None, 'scores': None}, r"missing fields \['licence', 'scores'\]"),
    ({'scores': [{'metric': 'top-1 error'}]}, 'a score lacks the fields'),
])
def test_malformed_rows_are_refused(change, message, tmp_path, weight_row):
    row = {k: v for k, v in weight_row(**change).items() if v is not None}
    path = tmp_path / 'manifest.json'
    path.write_text(json.dumps({'format_version': 1, 'weights': [weight_row(), row]}))
    with pytest.raises(ValueError, match=r'manifest.json: row 1 \(.*\): .*' + message):
        weights.load_manifest(path)


def test_duplicate_rows_are_refused(tmp_path, weight_row):
    path = tmp_path / 'manifest.json'
    path.write_text(json.dumps({'format_version': 1, 'weights': [weight_row(), weight_row()]}))
    with pytest.raises(ValueError, match='rows 0 and 1 are both tiny_classifier_for_tests/demo'):
        weights.load_manifest(path)


def test_the_weights_of_an_extractor_fix_no_classes(tmp_path, weight_row, weights_manifest):
    weights_manifest([weight_row(n_class=None, categories=None)])
    spec = weights.get_weight('tiny_classifier_for_tests', 'demo')
    assert spec.n_class is None and spec.label_names is None
    for n_class in (7, None):
        param, pretrained = weights.prepare_pretrained_model(
            'tiny_classifier_for_tests', 'demo', {'n_class': n_class, 'mean': None},
            {'n_class': 5})
        assert param['n_class'] == (n_class or 5) and pretrained.spec == spec
    for change in ({'n_class': None}, {'categories': None}):
        path = tmp_path / 'manifest.json'
        path.write_text(json.dumps({'format_version': 1, 'weights': [weight_row(**change)]}))
        with pytest.raises(ValueError, match=r'row 0 .*: n_class and categories must both be '
                                             r'null \(the weights of an extractor, without a '
                                             r'classifier\) or neither'):
            weights.load_manifest(path)

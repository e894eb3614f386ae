"""DeepLabV3plusXception65: ChainerCV's parameters, parity with ChainerCV's model on weights made
by the rule of the fixtures (513x513, and small images padded, rescaled and flipped), the static
graph, and the weights it loads."""

from __future__ import annotations

import pathlib

import numpy
import pytest

from framework import initializers
from framework.serializers import NpzDeserializer
from vision.models import get_model
from vision.models.segmentation.deeplab import DeepLabV3plusXception65
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes
from vision.weights import get_weight
from vision.weights.load import Pretrained

pytestmark = pytest.mark.filterwarnings('ignore:.*without a published hash')

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'chainercv_deeplab_v3plus_xception65_params.tsv'
NAME = 'deeplab_v3plus_xception65'


@pytest.fixture(scope='module')
def rule_model():
    """ChainerCV's DeepLabV3plusXception65(n_class=21) filled by the rule, with a
    min_input_size of 64x64 (the small images' fixtures)."""
    model = DeepLabV3plusXception65(n_class=21, min_input_size=64,
                                    initialW=initializers.Zero())
    NpzDeserializer(rule_npz_state(TSV), ignore_names=lambda key: key.endswith('/N')).load(model)
    return model


def test_parameters_are_chainercvs(rule_model):
    assert model_shapes(rule_model) == tsv_shapes(TSV)


def test_registered_as_a_semantic_segmentation_model():
    assert get_model(NAME) is DeepLabV3plusXception65
    assert DeepLabV3plusXception65.task == 'semantic_segmentation'
    assert DeepLabV3plusXception65.hybridize_by_default


@pytest.mark.slow
def test_label_map_is_chainercvs(rule_model, monkeypatch):
    with numpy.load(DATA / 'chainercv_deeplab_v3plus_xception65.npz') as f:
        img, expected = f['input'], f['predict/label']
    monkeypatch.setattr(rule_model, 'min_input_size', (513, 513))  # the fixture's
    label, = rule_model.predict([img])
    assert label.dtype == numpy.int32 and label.shape == expected.shape == (513, 513)
    assert (label == expected).mean() > 0.999


@pytest.mark.parametrize('key', ['padded', 'multiscale'])
def test_small_images_are_labelled_as_chainercv_labels_them(rule_model, monkeypatch, key):
    # tests/data/make_chainercv_deeplab_fixtures.py: a (3, 40, 56) image padded to 64x64, and
    # a (3, 70, 90) one at scales 0.5 (padded) and 1.25, each flipped too
    with numpy.load(DATA / 'chainercv_deeplab_sizes.npz') as f:
        img, scales, flip, expected_probs, expected_label = (
            f[f'{key}/{k}'] for k in ('input', 'scales', 'flip', 'probs', 'label'))
        step = int(f['step'])
    runs = []
    probabilities = rule_model._probabilities

    def recording(*args):
        runs.append(probabilities(*args))
        return runs[-1]

    monkeypatch.setattr(rule_model, '_probabilities', recording)
    monkeypatch.setattr(rule_model, 'scales', tuple(float(s) for s in scales))
    monkeypatch.setattr(rule_model, 'flip', bool(flip))
    label, = rule_model.predict([img])
    assert len(runs) == len(scales) * (2 if flip else 1)
    probs = sum(runs) / len(runs)
    numpy.testing.assert_allclose(probs[:, ::step, ::step], expected_probs, rtol=1e-3,
                                  atol=1e-5)
    numpy.testing.assert_array_equal(label, expected_label)


def test_hybridized_predict_is_the_eager_one(rule_model, monkeypatch):
    monkeypatch.setattr(rule_model, 'min_input_size', (32, 32))
    imgs = [numpy.random.RandomState(0).uniform(0, 255, (1, 32, 19)).astype(numpy.float32)]
    eager = rule_model.predict(imgs)
    rule_model.hybridize()
    try:
        hybrid = rule_model.predict(imgs)
    finally:
        rule_model.hybridize(False)
    for h, e in zip(hybrid, eager, strict=True):
        numpy.testing.assert_array_equal(h, e)


def test_chainercvs_weights_are_in_the_manifest():
    for name, n_class, size, first in (('voc', 21, [513, 513], 'background'),
                                       ('cityscapes', 19, [1025, 2049], 'road'),
                                       ('ade20k', 150, [513, 513], 'wall')):
        spec = get_weight(NAME, name)
        assert spec.n_class == n_class and spec.label_names[0] == first
        assert spec.model_kwargs['min_input_size'] == size
        assert spec.model_kwargs['extractor_kwargs'] == {'bn_kwargs': {'decay': 0.9997,
                                                                       'eps': 1e-3}}
        assert spec.source['url'].startswith('https://chainercv-models.preferred.jp/'
                                             'deeplabv3plus_xception65_')
        assert spec.scores[0]['metric'] == 'mean IoU'


@pytest.mark.parametrize('kwargs, message', [
    ({}, f'{NAME}: n_class must be given when pretrained_model is None'),
    ({'n_class': 19, 'pretrained_model': 'voc'},
     "n_class=19 contradicts the weights 'voc', made for n_class=21: leave n_class out or pass "
     'n_class=21'),
    ({'pretrained_model': 'cityscapes', 'min_input_size': 513},
     r"min_input_size=\(513, 513\) contradicts the weights 'cityscapes', made for "
     r'min_input_size=\(1025, 2049\)'),
    ({'pretrained_model': 'ade20k', 'extractor_kwargs': {}},
     "extractor_kwargs={} contradicts the weights 'ade20k'"),
    ({'n_class': 3, 'min_input_size': -1}, r'min_input_size must be a positive int or a pair'),
])
def test_arguments_contradicting_the_weights_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        DeepLabV3plusXception65(**kwargs)


def test_the_classifier_of_a_file_fixes_n_class(tmp_path):
    path = tmp_path / 'deeplab.npz'
    numpy.savez(path, **{'decoder/conv_logits/W': numpy.zeros((4, 256, 1, 1), numpy.float32)})
    with pytest.raises(ValueError, match=rf'n_class=5 contradicts the file {path}, made for '
                                         'n_class=4'):
        DeepLabV3plusXception65(n_class=5, pretrained_model=path)


def test_weights_by_name_fix_min_input_size_and_the_batch_normalizations(monkeypatch):
    # what the constructor resolves from the manifest's row, the loading itself left out
    monkeypatch.setattr(Pretrained, 'load', lambda self, link: setattr(link, 'weight_spec',
                                                                       self.spec))
    model = DeepLabV3plusXception65(pretrained_model='cityscapes', scales=(0.5,), flip=True)
    assert model.n_class == 19 and model.min_input_size == (1025, 2049)
    assert model.scales == (0.5,) and model.flip is True
    assert model.weight_spec.name == 'cityscapes'
    extractor, aspp, decoder = model.feature_extractor, model.aspp, model.decoder
    assert extractor.middleflow_block3.separable2.pw_bn.eps == extractor.entryflow_conv1.bn.eps
    assert extractor.entryflow_conv1.bn.eps == 1e-3 and extractor.entryflow_conv1.bn.decay == 0.9997
    assert aspp.proj.bn.eps == aspp.atrous3.dw_bn.eps == decoder.conv2.pw_bn.eps == 1e-5
    assert decoder.feature_proj.bn.eps == 2e-5  # ChainerCV gives it no bn_kwargs
    assert not numpy.abs(decoder.conv_logits.W.array).any()  # zero until the weights load

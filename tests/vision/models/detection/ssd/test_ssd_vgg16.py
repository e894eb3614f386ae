"""SSD300 and SSD512: ChainerCV's parameters, parity with ChainerCV's SSD300 on weights made
by the rule of the fixtures, and the loading of weights."""

from __future__ import annotations

import hashlib
import io
import pathlib

import numpy
import pytest

import framework
import framework.random
from framework.links.link import Chain
from framework.serializers import NpzDeserializer, save_npz
from vision.models import SSD300, SSD512, get_model
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'


@pytest.fixture(scope='module')
def ssd300_rule():
    """SSD300(n_fg_class=20) filled by the fixtures' rule."""
    model = SSD300(n_fg_class=20)
    NpzDeserializer(rule_npz_state(DATA / 'chainercv_ssd300_params.tsv')).load(model)
    return model


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'chainercv_ssd300.npz') as f:
        return dict(f)


@pytest.mark.parametrize('cls, tsv', [(SSD300, 'chainercv_ssd300_params.tsv'),
                                      (SSD512, 'chainercv_ssd512_params.tsv')])
def test_parameters_are_chainercvs(cls, tsv):
    assert model_shapes(cls(n_fg_class=20)) == tsv_shapes(DATA / tsv)


def test_registered_as_detectors():
    assert get_model('ssd300') is SSD300 and get_model('ssd512') is SSD512
    assert SSD300.task == SSD512.task == 'detection'
    assert SSD300(n_fg_class=2).insize == 300 and SSD512(n_fg_class=2).insize == 512


@pytest.mark.slow
def test_raw_outputs_are_chainercvs(ssd300_rule, fixture):
    x = ssd300_rule.prepare(fixture['input'])[None]
    with framework.using_config('train', False), framework.no_backprop_mode():
        mb_locs, mb_confs = ssd300_rule(x)
    for actual, expected in ((mb_locs.array, fixture['out/mb_locs']),
                             (mb_confs.array, fixture['out/mb_confs'])):
        assert actual.shape == expected.shape == actual.shape[:2] + expected.shape[2:]
        numpy.testing.assert_allclose(actual, expected, rtol=1e-3,
                                      atol=1e-4 * numpy.abs(expected).max())


@pytest.mark.slow
@pytest.mark.parametrize('hybridize', [False, True])
def test_predict_is_chainercvs(ssd300_rule, fixture, hybridize):
    ssd300_rule.nms_thresh = float(fixture['nms_thresh'])
    ssd300_rule.score_thresh = float(fixture['score_thresh'])
    ssd300_rule.hybridize(hybridize)
    (bbox,), (label,), (score,) = ssd300_rule.predict([fixture['input']])
    ssd300_rule.hybridize(False)
    expected_bbox, expected_label = fixture['predict/bbox'], fixture['predict/label']
    expected_score = fixture['predict/score']
    assert bbox.shape == expected_bbox.shape and len(bbox) > 1000
    numpy.testing.assert_array_equal(label, expected_label)
    numpy.testing.assert_allclose(score, expected_score, atol=1e-4)
    # Boxes whose scores are tied (within float32 noise) may come in either order.
    for i in numpy.nonzero(numpy.abs(bbox - expected_bbox).max(axis=1) > 0.5)[0]:
        tied = (label == label[i]) & (numpy.abs(score - expected_score[i]) < 1e-6)
        assert tied.sum() > 1
        assert numpy.abs(bbox[tied] - expected_bbox[i]).max(axis=1).min() <= 0.5


def test_n_fg_class_must_be_given_without_weights():
    with pytest.raises(ValueError, match='SSD300: n_fg_class must be given'):
        SSD300()
    with pytest.raises(ValueError, match='n_fg_class must be a positive int, but got 0'):
        SSD300(n_fg_class=0)


def _write_weights(path, n_fg_class, prefix=''):
    """An SSD300 NPZ of zeros and ones (it compresses about twentyfold, within the readers'
    limit against zip bombs) but for a recognisable head bias; the model under ``model/``
    when ``prefix``."""
    model = SSD300(n_fg_class=n_fg_class)
    rng = numpy.random.RandomState(0)
    for _, param in model.namedparams():
        param.array[...] = rng.randint(0, 2, param.shape)
    model.multibox.conf[0].b.array[:] = numpy.arange(4 * (n_fg_class + 1))
    target = model
    if prefix:
        target = Chain()
        with target.init_scope():
            target.model = model
    save_npz(str(path), target, compression=True)
    return path


@pytest.fixture(scope='module')
def weights_3(tmp_path_factory):
    """An SSD300 NPZ file of 3 foreground classes."""
    return _write_weights(tmp_path_factory.mktemp('ssd') / 'ssd.npz', 3)


@pytest.fixture(scope='module')
def weights_20_under_model(tmp_path_factory):
    """An SSD300 NPZ file of 20 foreground classes, the model under ``model/``."""
    return _write_weights(tmp_path_factory.mktemp('ssd') / 'chain.npz', 20, prefix='model/')


@pytest.mark.slow
def test_loads_an_npz_file_and_takes_n_fg_class_from_it(weights_3):
    model = SSD300(pretrained_model=str(weights_3))
    assert model.n_fg_class == 3 and model.weight_spec is None
    numpy.testing.assert_array_equal(model.multibox.conf[0].b.array, numpy.arange(16))
    assert set(numpy.unique(model.extractor.conv1_1.W.array)) == {0, 1}


@pytest.mark.slow
def test_loads_a_model_saved_under_a_path(weights_20_under_model):
    model = SSD300(n_fg_class=20, pretrained_model=weights_20_under_model)
    numpy.testing.assert_array_equal(model.multibox.conf[0].b.array, numpy.arange(84))


@pytest.mark.slow
def test_n_fg_class_contradicting_a_file_is_refused(weights_3):
    with pytest.raises(ValueError, match=r'n_fg_class=20 contradicts the file .*ssd\.npz, which '
                                         r'detect 3 foreground classes'):
        SSD300(n_fg_class=20, pretrained_model=weights_3)


def test_a_file_without_an_ssd_head_is_refused(tmp_path):
    path = tmp_path / 'other.npz'
    numpy.savez(path, W=numpy.zeros(3))
    with pytest.raises(ValueError, match="holds no SSD head"):
        SSD300(n_fg_class=3, pretrained_model=path)


@pytest.mark.parametrize('cls', [SSD300, SSD512])
def test_n_fg_class_contradicting_the_voc_weights_is_refused(cls):
    with pytest.raises(ValueError, match=rf"{cls.__name__}: n_fg_class=5 contradicts the "
                                         r"weights 'voc0712' .*which detect 20 foreground "
                                         r"classes"):
        cls(n_fg_class=5, pretrained_model='voc0712')


def test_unknown_weights_are_refused():
    with pytest.raises(ValueError, match="unknown pretrained_model 'coco'.*ssd300/voc0712"):
        SSD300(pretrained_model='coco')


def test_manifest_rows_are_chainercvs():
    from vision.weights import get_weight
    for model, url, value in (('ssd300', 'ssd300_voc0712_converted_2017_06_06.npz', 77.8),
                              ('ssd512', 'ssd512_voc0712_converted_2017_06_06.npz', 79.7)):
        spec = get_weight(model, 'voc0712')
        assert spec.source['url'] == f'https://chainercv-models.preferred.jp/{url}'
        assert spec.n_class == 20 and spec.label_names[0] == 'aeroplane'
        assert spec.converter == 'chainercv_npz'
        assert [s['value'] for s in spec.scores] == [value]


def test_manifest_rows_of_the_imagenet_extractor_are_chainercvs():
    from vision.weights import get_weight
    for model, value in (('ssd300', 77.5), ('ssd512', 80.1)):
        spec = get_weight(model, 'imagenet')
        assert spec.source['url'] == ('https://chainercv-models.preferred.jp/'
                                      'ssd_vgg16_imagenet_converted_2017_06_09.npz')
        assert spec.n_class is None and spec.label_names is None
        assert spec.converter == 'chainercv_npz' and spec.sha256 is spec.sha256_prefix is None
        assert spec.preprocessing.mean == (123, 117, 104)
        assert [s['value'] for s in spec.scores] == [value]


@pytest.mark.slow
@pytest.mark.parametrize('cls', [SSD300, SSD512])
def test_imagenet_weights_fill_the_extractor_as_chainercv(cls, file_server, vision_home,
                                                           weights_manifest, weight_row):
    # Two layers of the file (ChainerCV's conversion of the authors' VGG-16 holds conv1_1 to
    # conv7) and a key of no layer of SSD.
    rng = numpy.random.RandomState(0)
    arrays = {key: rng.uniform(-1, 1, shape).astype(numpy.float32) for key, shape in (
        ('extractor/conv1_1/W', (64, 3, 3, 3)), ('extractor/conv1_1/b', (64,)),
        ('extractor/conv7/W', (1024, 1024, 1, 1)), ('extractor/conv7/b', (1024,)),
        ('fc8/W', (2, 2)))}
    buffer = io.BytesIO()
    numpy.savez(buffer, **arrays)
    data = buffer.getvalue()
    url = file_server.serve('/ssd_vgg16_imagenet.npz', data)
    weights_manifest([weight_row(
        model=cls.model_name, name='imagenet', source={'url': url}, converter='chainercv_npz',
        sha256=hashlib.sha256(data).hexdigest(), n_class=None, categories=None)])
    with pytest.raises(ValueError, match=rf"{cls.__name__}: n_fg_class must be given with "
                                         r"pretrained_model='imagenet' \(the weights of the "
                                         r"extractor only\)"):
        cls(pretrained_model='imagenet')
    models = []
    for pretrained_model in ('imagenet', None):
        numpy.random.seed(0)
        framework.random.seed(0)  # the initializers' generator
        models.append(cls(n_fg_class=5, pretrained_model=pretrained_model))
    model, initial = models
    assert model.n_fg_class == 5 and model.weight_spec.name == 'imagenet'
    initial = dict(initial.namedparams())
    for name, param in model.namedparams():
        numpy.testing.assert_array_equal(
            param.array, arrays.get(name.lstrip('/'), initial[name].array), err_msg=name)


@pytest.mark.slow
def test_weights_by_name_are_fetched_and_loaded(tmp_path, file_server, vision_home,
                                                weights_manifest, weight_row):
    data = _write_weights(tmp_path / 'served.npz', 20).read_bytes()
    url = file_server.serve('/ssd300_voc0712.npz', data)
    weights_manifest([weight_row(
        model='ssd300', name='voc0712', source={'url': url}, converter='chainercv_npz',
        n_class=20, categories='voc')])
    with pytest.raises(ValueError, match='contradicts'):
        SSD300(n_fg_class=3, pretrained_model='voc0712')
    assert file_server.count('/ssd300_voc0712.npz') == 0
    with pytest.warns(UserWarning, match='without a published hash'):
        model = SSD300(pretrained_model='voc0712')
    assert model.n_fg_class == 20 and model.weight_spec.name == 'voc0712'
    numpy.testing.assert_array_equal(model.multibox.conf[0].b.array, numpy.arange(84))
    assert file_server.count('/ssd300_voc0712.npz') == 1

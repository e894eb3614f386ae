import hashlib
import io
import json
import pathlib
import shutil
import zipfile

import numpy
import pytest

import framework
from framework.links import Chain
from framework.serializers import save_npz
from vision import weights
from vision.models import get_model, list_models
from vision.utils.download import DownloadError, HashMismatchError

DATA = pathlib.Path(__file__).resolve().parents[1] / 'data'
REPO = pathlib.Path(__file__).resolve().parents[2]


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def random_weights(model_class, seed=0) -> tuple[object, bytes]:
    """A model with random parameters and its NPZ bytes."""
    model = model_class()
    rng = numpy.random.RandomState(seed)
    for _, param in model.namedparams():
        param.array[...] = rng.uniform(-1, 1, param.shape)
    model.conv.bn.avg_var[...] = rng.uniform(0.5, 1.5, 4)
    buffer = io.BytesIO()
    save_npz(buffer, model)
    return model, buffer.getvalue()


def assert_same_params(a, b):
    for (name, p), (_, q) in zip(a.namedparams(), b.namedparams()):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
    numpy.testing.assert_array_equal(a.conv.bn.avg_var, b.conv.bn.avg_var)


def logits(model, img):
    model.pick = 'fc'
    with framework.using_config('train', False), framework.no_backprop_mode():
        return model((img - model.mean)[None]).array


# --- the real manifest ---------------------------------------------------------------------

def test_the_manifest_is_valid():
    specs = weights.load_manifest(REPO / 'weights_manifest.json')
    models = {s.model for s in specs}
    assert models == {name for name in list_models() if not name.endswith('_for_tests')}
    for spec in specs:
        assert spec.scores and spec.licence
        assert spec.n_class == len(spec.label_names)
        if spec.converter.startswith('torchvision'):
            # torchvision names its files by the first digits of their sha256.
            assert spec.source['url'].endswith(f'-{spec.sha256_prefix}.pth')
            assert spec.preprocessing.std is not None
    assert weights.get_weight('resnet50', 'imagenet', arch='he').source['url'].endswith(
        'resnet50_imagenet_converted_2018_03_07.npz')
    names = {(s.model, s.name) for s in specs}
    for model in ('resnet50', 'resnet101', 'resnet152', 'vgg16', 'mobilenet_v2'):
        assert (model, 'imagenet') in names and (model, 'torchvision-imagenet1k-v1') in names


def test_imagenet_label_names():
    names = weights.label_names('imagenet')
    assert len(names) == len(set(names)) == 1000
    assert (names[0], names[207], names[817], names[999]) == (
        'tench', 'golden retriever', 'sports car', 'toilet tissue')
    assert weights.label_names('imagenet_with_background')[:2] == ('background', 'tench')


# --- weights by name -----------------------------------------------------------------------

def test_npz_weight_is_downloaded_verified_cached_and_loaded(
        file_server, vision_home, weights_manifest, weight_row, tiny_classifier):
    source, data = random_weights(tiny_classifier)
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url}, sha256=sha256(data))])
    model = tiny_classifier(pretrained_model='demo')
    assert_same_params(model, source)
    assert model.weight_spec.describe() == 'tiny_classifier_for_tests/demo'
    numpy.testing.assert_allclose(model.mean.ravel(), [123.675, 116.28, 103.53], rtol=1e-6)
    tiny_classifier(pretrained_model='demo')
    assert file_server.paths == ['/w/tiny.npz']


def test_wrong_hash_is_refused_and_not_cached(file_server, vision_home, weights_manifest,
                                               weight_row, tiny_classifier):
    _, data = random_weights(tiny_classifier)
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url}, sha256='0' * 64)])
    with pytest.raises(HashMismatchError, match=f'could not download {url}: the bytes received '
                                                f'have sha256 {sha256(data)}, but 0{{64}}'):
        tiny_classifier(pretrained_model='demo')
    assert not list(vision_home.rglob('tiny.npz'))


def test_offline_machine_says_where_to_put_the_file(file_server, vision_home,
                                                    weights_manifest, weight_row, monkeypatch,
                                                    tiny_classifier):
    url = file_server.serve('/w/tiny.npz', b'')
    weights_manifest([weight_row(source={'url': url}, sha256='0' * 64)])
    monkeypatch.setenv('VISION_OFFLINE', '1')
    with pytest.raises(DownloadError, match=f'could not download {url}: the network is off.*'
                                            f'place it at {vision_home}'):
        tiny_classifier(pretrained_model='demo')
    assert file_server.paths == []


def test_torch_checkpoint_is_converted_once(file_server, vision_home, weights_manifest,
                                            weight_row, tiny_classifier, tiny_expected):
    data = (DATA / 'tiny_classifier.pth').read_bytes()
    url = file_server.serve('/models/tiny-abc.pth', data)
    weights_manifest([weight_row(source={'url': url}, sha256_prefix=sha256(data)[:8],
                                 converter='tiny_torch_for_tests')])
    model = tiny_classifier(pretrained_model='demo')
    numpy.testing.assert_allclose(logits(model, tiny_expected['img']), tiny_expected['logits'],
                                  rtol=1e-4, atol=1e-4)
    converted = list((vision_home / 'converted').rglob('*.npz'))
    assert len(converted) == 1
    # The conversion is kept: neither the checkpoint nor the network are needed again.
    shutil.rmtree(vision_home / 'downloads')
    file_server.files.clear()
    again = tiny_classifier(pretrained_model='demo')
    assert_same_params(again, model)
    assert file_server.paths == ['/models/tiny-abc.pth']


def test_wrong_hash_prefix_is_refused(file_server, vision_home, weights_manifest,
                                      weight_row, tiny_classifier):
    data = (DATA / 'tiny_classifier.pth').read_bytes()
    url = file_server.serve('/models/tiny.pth', data)
    weights_manifest([weight_row(source={'url': url}, sha256_prefix='deadbeef',
                                 converter='tiny_torch_for_tests')])
    with pytest.raises(HashMismatchError, match=r'but deadbeef\.\.\. was expected'):
        tiny_classifier(pretrained_model='demo')
    assert not list(vision_home.rglob('tiny.pth')) and not list(vision_home.rglob('*.npz'))


def test_weight_without_a_hash_warns_with_its_hash(file_server, vision_home,
                                                   weights_manifest, weight_row,
                                                   tiny_classifier):
    _, data = random_weights(tiny_classifier)
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url})])
    with pytest.warns(UserWarning, match=f'without a published hash.*{sha256(data)}'):
        tiny_classifier(pretrained_model='demo')


def _wheel(path: pathlib.Path, member: str, data: bytes) -> None:
    dist = 'tinyweights-1.0.dist-info'
    files = {
        member: data,
        'tinyweights/__init__.py': b'',
        f'{dist}/METADATA': b'Metadata-Version: 2.1\nName: tinyweights\nVersion: 1.0\n',
        f'{dist}/WHEEL': b'Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n'
                         b'Tag: py3-none-any\n',
    }
    files[f'{dist}/RECORD'] = ''.join(f'{n},,\n' for n in [*files, f'{dist}/RECORD']).encode()
    with zipfile.ZipFile(path, 'w') as z:
        for name, content in files.items():
            z.writestr(name, content)


def test_file_inside_a_pypi_package(tmp_path, vision_home, weights_manifest, weight_row,
                                    monkeypatch, tiny_classifier):
    source, data = random_weights(tiny_classifier)
    index = tmp_path / 'index'
    index.mkdir()
    _wheel(index / 'tinyweights-1.0-py3-none-any.whl', 'tinyweights/tiny.npz', data)
    monkeypatch.setenv('PIP_NO_INDEX', '1')
    monkeypatch.setenv('PIP_FIND_LINKS', str(index))
    weights_manifest([weight_row(source={'pypi': 'tinyweights==1.0',
                                         'path': 'tinyweights/tiny.npz'},
                                 sha256=sha256(data))])
    assert_same_params(tiny_classifier(pretrained_model='demo'), source)
    assert list(vision_home.glob('pypi/*/*')) == [
        vision_home / 'pypi' / 'tinyweights==1.0' / 'tinyweights_tiny.npz']
    # A missing package is a DownloadError naming it.
    weights_manifest([weight_row(source={'pypi': 'tinyweights==2.0',
                                         'path': 'tinyweights/tiny.npz'})])
    with pytest.raises(DownloadError, match='pypi:tinyweights==2.0/tinyweights/tiny.npz: pip '
                                            'download failed'):
        tiny_classifier(pretrained_model='demo')


def test_file_of_the_repository(tmp_path, vision_home, weights_manifest, weight_row,
                                monkeypatch, tiny_classifier):
    source, data = random_weights(tiny_classifier)
    (tmp_path / 'weights').mkdir()
    (tmp_path / 'weights' / 'tiny.npz').write_bytes(data)
    monkeypatch.setattr('vision._weights_fetch.REPO_ROOT', tmp_path)
    weights_manifest([weight_row(source={'file': 'weights/tiny.npz'}, sha256=sha256(data))])
    assert_same_params(tiny_classifier(pretrained_model='demo'), source)
    weights_manifest([weight_row(source={'file': 'weights/gone.npz'})])
    with pytest.raises(DownloadError, match='repo:weights/gone.npz: the file is not in the '
                                            'repository'):
        tiny_classifier(pretrained_model='demo')


def test_selection_by_model_kwargs_and_argument_checks(weights_manifest, weight_row,
                                                       tiny_classifier):
    weights_manifest([weight_row(n_class=1001, categories='imagenet_with_background')])
    with pytest.raises(ValueError, match='tiny_classifier_for_tests: n_class must be 1001 for '
                                         "the weights 'demo', but got 5"):
        tiny_classifier(pretrained_model='demo', n_class=5)
    with pytest.raises(ValueError, match=r"unknown pretrained_model 'dem'.*The weights of "
                                         r'tiny_classifier_for_tests are: '
                                         r'tiny_classifier_for_tests/demo$'):
        tiny_classifier(pretrained_model='dem')
    resnet = [s for s in weights.list_weights() if s.model == 'resnet50']
    assert resnet == []  # only the manifest of the test is read


# --- weights by path -----------------------------------------------------------------------

def test_local_npz_in_our_layout_or_under_a_prefix(tmp_path, tiny_classifier):
    source, data = random_weights(tiny_classifier)
    (tmp_path / 'plain.npz').write_bytes(data)
    assert_same_params(tiny_classifier(pretrained_model=tmp_path / 'plain.npz'), source)
    wrapper = Chain()
    with wrapper.init_scope():
        wrapper.predictor = source
    save_npz(tmp_path / 'classifier.npz', wrapper)
    model = tiny_classifier(pretrained_model=str(tmp_path / 'classifier.npz'))
    assert_same_params(model, source)
    assert model.weight_spec is None


def test_local_torch_checkpoint_is_recognised_by_content(tmp_path, tiny_classifier,
                                                         tiny_expected):
    path = tmp_path / 'weights.bin'
    shutil.copy(DATA / 'tiny_classifier.pth', path)
    assert weights.file_kind(path) == 'torch'
    model = tiny_classifier(pretrained_model=path)
    numpy.testing.assert_allclose(model.mean, weights.IMAGENET_TORCHVISION.model_mean())
    numpy.testing.assert_allclose(logits(model, tiny_expected['img']), tiny_expected['logits'],
                                  rtol=1e-4, atol=1e-4)


def test_local_file_of_unknown_kind(tmp_path, tiny_classifier):
    (tmp_path / 'x.npy').write_bytes(b'\x93NUMPY rest')
    with pytest.raises(ValueError, match='x.npy is neither an NPZ file nor a PyTorch '
                                         'checkpoint'):
        tiny_classifier(pretrained_model=tmp_path / 'x.npy')


def test_resnet_from_a_torchvision_checkpoint_takes_torchvisions_layout(tmp_path, monkeypatch):
    """Only the routing: which converter and architecture arguments a .pth file brings (the
    conversion itself is checked against torchvision's outputs in the model tests)."""
    path = tmp_path / 'resnet50-0676ba61.pth'
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('archive/data.pkl', b'')
    seen = {}

    def fake_convert(path, converter, preprocessing):
        seen.update(converter=converter.name, preprocessing=preprocessing)
        return {}

    monkeypatch.setattr(weights, 'convert_checkpoint', fake_convert)
    monkeypatch.setattr('framework.serializers.NpzDeserializer.load', lambda self, link: None)
    model = get_model('resnet50')(pretrained_model=str(path))
    assert seen == {'converter': 'torchvision_resnet',
                    'preprocessing': weights.IMAGENET_TORCHVISION}
    assert model.arch == 'fb' and model.pool1.pad == 1 and model.conv1.bn.eps == 1e-5
    with pytest.raises(ValueError, match="resnet50: arch must be 'fb' for the weights"):
        get_model('resnet50')(pretrained_model=str(path), arch='he')


# --- the manifest's checks -----------------------------------------------------------------

@pytest.mark.parametrize('change, message', [
    ({'model': 'resnet5'}, "no model is named 'resnet5'"),
    ({'converter': 'caffe'}, "no converter is named 'caffe'"),
    ({'categories': 'coco'}, "unknown categories 'coco'"),
    ({'n_class': 10}, "n_class is 10, but 'imagenet' has 1000 categories"),
    ({'sha256': 'abc'}, "sha256 must be 64 lowercase hexadecimal digits, but got 'abc'"),
    ({'sha256_prefix': 'XYZ12345'}, 'sha256_prefix must be 8 to 63'),
    ({'source': {'ftp': 'x'}}, 'source must be'),
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


def test_converters_refuse_duplicate_names():
    with pytest.raises(ValueError, match="the converter 'torchvision_resnet' already exists"):
        weights.register_converter('torchvision_resnet')(lambda state, pre: state)

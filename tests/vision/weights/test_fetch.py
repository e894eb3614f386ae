"""Weights by name whose file comes from a URL or from the repository."""

import hashlib

import numpy
import pytest

from vision.utils.download import DownloadError, HashMismatchError


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_npz_weight_is_downloaded_verified_cached_and_loaded(
        file_server, vision_home, weights_manifest, weight_row, tiny_classifier, random_weights,
        assert_same_params):
    source, data = random_weights()
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url}, sha256=_sha256(data))])
    model = tiny_classifier(pretrained_model='demo')
    assert_same_params(model, source)
    assert model.weight_spec.describe() == 'tiny_classifier_for_tests/demo'
    numpy.testing.assert_allclose(model.mean.ravel(), [123.675, 116.28, 103.53], rtol=1e-6)
    tiny_classifier(pretrained_model='demo')
    assert file_server.paths == ['/w/tiny.npz']


def test_wrong_hash_is_refused_and_not_cached(file_server, vision_home, weights_manifest,
                                               weight_row, tiny_classifier, random_weights):
    _, data = random_weights()
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url}, sha256='0' * 64)])
    with pytest.raises(HashMismatchError, match=f'could not download {url}: the bytes received '
                                                f'have sha256 {_sha256(data)}, but 0{{64}}'):
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


def test_wrong_hash_prefix_is_refused(file_server, vision_home, weights_manifest,
                                      weight_row, tiny_classifier, tiny_checkpoint):
    url = file_server.serve('/models/tiny.pth', tiny_checkpoint)
    weights_manifest([weight_row(source={'url': url}, sha256_prefix='deadbeef',
                                 converter='tiny_torch_for_tests')])
    with pytest.raises(HashMismatchError, match=r'but deadbeef\.\.\. was expected'):
        tiny_classifier(pretrained_model='demo')
    assert not list(vision_home.rglob('tiny.pth')) and not list(vision_home.rglob('*.npz'))


def test_weight_without_a_hash_warns_with_its_hash(file_server, vision_home,
                                                   weights_manifest, weight_row,
                                                   tiny_classifier, random_weights):
    _, data = random_weights()
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url})])
    with pytest.warns(UserWarning, match=f'without a published hash.*{_sha256(data)}'):
        tiny_classifier(pretrained_model='demo')


def test_file_of_the_repository(tmp_path, vision_home, weights_manifest, weight_row,
                                monkeypatch, tiny_classifier, random_weights,
                                assert_same_params):
    source, data = random_weights()
    (tmp_path / 'weights').mkdir()
    (tmp_path / 'weights' / 'tiny.npz').write_bytes(data)
    monkeypatch.setattr('vision.weights.fetch.REPO_ROOT', tmp_path)
    weights_manifest([weight_row(source={'file': 'weights/tiny.npz'}, sha256=_sha256(data))])
    assert_same_params(tiny_classifier(pretrained_model='demo'), source)
    weights_manifest([weight_row(source={'file': 'weights/tiny.npz'}, sha256='0' * 64)])
    with pytest.raises(HashMismatchError, match='the file already at .*tiny.npz has sha256'):
        tiny_classifier(pretrained_model='demo')
    assert (tmp_path / 'weights' / 'tiny.npz').exists()
    weights_manifest([weight_row(source={'file': 'weights/gone.npz'})])
    with pytest.raises(DownloadError, match='repo:weights/gone.npz: the file is not in the '
                                            'repository'):
        tiny_classifier(pretrained_model='demo')

"""Trust on first use: the sha256 of a file without a published hash is recorded at its first
download, and a later download of the same URL that differs is reported loudly."""

import hashlib
import json
import os
import warnings

import pytest

from vision import weights


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _fetch():
    return weights.fetch_weight_files('tiny_classifier_for_tests', 'demo', progress=False)


def test_the_first_download_is_pinned_and_a_different_one_warns(
        file_server, vision_home, weights_manifest, weight_row, random_weights):
    _, first = random_weights(0)
    _, second = random_weights(1)
    url = file_server.serve('/w/tiny.npz', first)
    weights_manifest([weight_row(source={'url': url})])
    pins = vision_home / 'pins.json'
    with pytest.warns(UserWarning, match=f'{url} comes without a published hash: its sha256 '
                                         f'{_sha256(first)} was recorded in {pins}'):
        path = _fetch()['tiny.npz']
    assert json.loads(pins.read_text()) == {'format_version': 1,
                                            'sha256': {url: _sha256(first)}}
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        _fetch()
        os.remove(path)
        _fetch()  # the same bytes again
    os.remove(path)
    file_server.files['/w/tiny.npz'] = second
    with pytest.warns(weights.WeightChangedWarning,
                      match=f'{url} has changed since its first download: its sha256 is now '
                            f'{_sha256(second)}, but {_sha256(first)} was recorded in {pins}'):
        _fetch()
    assert json.loads(pins.read_text())['sha256'] == {url: _sha256(first)}
    hashed = file_server.serve('/w/hashed.npz', second)
    weights_manifest([weight_row(source={'url': hashed}, sha256=_sha256(second))])
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        _fetch()  # a file with a published hash is not pinned
    assert json.loads(pins.read_text())['sha256'] == {url: _sha256(first)}


def test_an_unreadable_pins_file_names_itself(file_server, vision_home, weights_manifest,
                                              weight_row, random_weights):
    _, data = random_weights()
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url})])
    vision_home.mkdir()
    (vision_home / 'pins.json').write_text('{"format_version": 1, "sha256": ')
    with pytest.raises(ValueError, match=f'{vision_home / "pins.json"} is not a file of pins'):
        _fetch()

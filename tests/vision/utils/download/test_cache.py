"""cached_download, download_model and the directories under $VISION_HOME."""

from __future__ import annotations

import hashlib
import os

import pytest

import vision.utils
from vision.utils.download import (
    DownloadError,
    HashMismatchError,
    cached_download,
    download_model,
    get_dataset_directory,
    get_dataset_root,
    get_vision_home,
    set_dataset_root,
    url_file_name,
)


def test_cache_layout(file_server, vision_home, payload):
    file_server.files['/data/VOCtrainval_11-May-2012.tar'] = payload
    url = file_server.url('/data/VOCtrainval_11-May-2012.tar')
    path = cached_download(url, progress=False)
    key = hashlib.sha256(url.encode()).hexdigest()[:16]
    assert path == str(vision_home / 'downloads' / key / 'VOCtrainval_11-May-2012.tar')
    assert open(path, 'rb').read() == payload
    assert sorted(os.listdir(vision_home / 'downloads' / key)) == [
        'VOCtrainval_11-May-2012.tar', 'VOCtrainval_11-May-2012.tar.lock']


def test_cached_download_downloads_once(file_server, vision_home, payload):
    file_server.files['/a.npz'] = payload
    url = file_server.url('/a.npz')
    digest = hashlib.sha256(payload).hexdigest()
    first = cached_download(url, digest, progress=False)
    second = cached_download(url, digest, progress=False)
    assert first == second
    assert file_server.count('/a.npz') == 1


def test_urls_with_one_name_do_not_collide(file_server, vision_home):
    file_server.files['/x/a.npz'] = b'x'
    file_server.files['/y/a.npz'] = b'y'
    x = cached_download(file_server.url('/x/a.npz'), progress=False)
    y = cached_download(file_server.url('/y/a.npz'), progress=False)
    assert x != y
    assert (open(x, 'rb').read(), open(y, 'rb').read()) == (b'x', b'y')


def test_cached_download_errors_name_the_function_and_the_cache_path(file_server, vision_home):
    url = file_server.url('/missing.tar')
    with pytest.raises(DownloadError, match='^cached_download: could not download ') as info:
        cached_download(url, backoff=0.0, progress=False)
    assert info.value.path.startswith(str(vision_home / 'downloads'))
    assert info.value.path.endswith('missing.tar')
    assert f'place it at {info.value.path}' in str(info.value)


def test_wrong_hash_leaves_nothing_in_the_cache(file_server, vision_home, payload):
    file_server.files['/a.npz'] = payload
    with pytest.raises(HashMismatchError, match='nothing was written to the cache'):
        cached_download(file_server.url('/a.npz'), 'f' * 64, progress=False)
    files = [name for _, _, names in os.walk(vision_home) for name in names]
    assert files == ['a.npz.lock']


def test_file_placed_by_hand_is_used(vision_home):
    url = 'http://127.0.0.1:9/weights.npz'
    with pytest.raises(DownloadError) as info:
        cached_download(url, retries=0, progress=False)
    with open(info.value.path, 'wb') as f:
        f.write(b'weights')
    digest = hashlib.sha256(b'weights').hexdigest()
    assert cached_download(url, digest, retries=0) == info.value.path


def test_download_model(file_server, vision_home, payload):
    file_server.files['/subdir/model.npz'] = payload
    url = file_server.url('/subdir/model.npz')
    path = download_model(url, hashlib.sha256(payload).hexdigest(), progress=False)
    assert path == str(vision_home / 'models' / 'model.npz')
    assert open(path, 'rb').read() == payload
    assert download_model(url, progress=False) == path
    assert file_server.count('/subdir/model.npz') == 1
    assert not (vision_home / 'downloads').exists()


def test_download_model_error_names_the_function(vision_home):
    with pytest.raises(DownloadError, match='^download_model: .* place it at .*model.npz'):
        download_model('http://127.0.0.1:9/model.npz', retries=0, progress=False)


@pytest.mark.parametrize(('url', 'name'), [
    ('https://host/dir/model.npz', 'model.npz'),
    ('https://host/dir/model.npz?dl=1#frag', 'model.npz'),
    ('https://host/dir/my%20model.tar.gz', 'my_model.tar.gz'),
    ('https://host/dir/..', 'download'),
    ('https://host/', 'download'),
    ('https://host/.hidden', 'hidden'),
])
def test_url_file_name(url, name):
    assert url_file_name(url) == name


def test_vision_home(monkeypatch, tmp_path):
    monkeypatch.setenv('VISION_HOME', str(tmp_path / 'h'))
    assert get_vision_home() == str(tmp_path / 'h')
    monkeypatch.delenv('VISION_HOME')
    monkeypatch.setenv('XDG_CACHE_HOME', str(tmp_path / 'xdg'))
    assert get_vision_home() == str(tmp_path / 'xdg' / 'vision')
    monkeypatch.delenv('XDG_CACHE_HOME')
    monkeypatch.setenv('HOME', str(tmp_path / 'user'))
    assert get_vision_home() == str(tmp_path / 'user' / '.cache' / 'vision')


def test_dataset_directories(vision_home, tmp_path):
    assert get_dataset_root() == str(vision_home / 'datasets')
    path = get_dataset_directory('pfnet/chainercv/voc')
    assert path == str(vision_home / 'datasets' / 'pfnet' / 'chainercv' / 'voc')
    assert os.path.isdir(path)
    assert not os.path.exists(get_dataset_directory('other', create_directory=False))
    set_dataset_root(tmp_path / 'elsewhere')
    try:
        assert get_dataset_root() == str(tmp_path / 'elsewhere')
        assert get_dataset_directory('voc') == str(tmp_path / 'elsewhere' / 'voc')
    finally:
        set_dataset_root(None)
    assert get_dataset_root() == str(vision_home / 'datasets')


def test_dataset_directory_rejects_a_non_string():
    with pytest.raises(TypeError, match='get_dataset_directory: dataset_name must be a str, '
                                        'but got int'):
        get_dataset_directory(3)


def test_chainercv_names_are_exported():
    assert vision.utils.cached_download is cached_download
    assert vision.utils.download_model is download_model
    assert callable(vision.utils.extractall)

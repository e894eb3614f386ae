"""download_file against a local server: resume, retries, hashes, errors, proxies, progress."""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import socket

import pytest

import vision.utils.download.fetch as fetch_module
from vision.utils.download import (
    CorruptDownloadError,
    DownloadError,
    HashMismatchError,
    download_file,
)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def resumed_at(range_header: str) -> int:
    match = re.fullmatch(r'bytes=(\d+)-', range_header)
    return int(match.group(1))


def fetch(url, path, sha256=None, **kwargs):
    kwargs.setdefault('backoff', 0.0)
    kwargs.setdefault('progress', False)
    return download_file(url, path, sha256, **kwargs)


def test_download(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    target = tmp_path / 'out' / 'a.bin'
    path = fetch(file_server.url('/a.bin'), target, sha(payload))
    assert path == str(target)
    assert target.read_bytes() == payload
    assert sorted(os.listdir(target.parent)) == ['a.bin', 'a.bin.lock']
    assert file_server.ranges('/a.bin') == [None]


def test_existing_file_is_not_downloaded_again(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin')
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', sha(payload).upper())
    assert file_server.count('/a.bin') == 1


def test_dropped_connection_is_resumed_with_range(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    file_server.plans['/a.bin'] = ['drop', 'ok']
    target = tmp_path / 'a.bin'
    fetch(file_server.url('/a.bin'), target, sha(payload))
    assert target.read_bytes() == payload
    first, second = file_server.ranges('/a.bin')
    assert first is None
    assert 0 < resumed_at(second) <= len(payload) // 2


def test_partial_file_of_an_earlier_call_is_resumed(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    target = tmp_path / 'a.bin'
    (tmp_path / 'a.bin.part').write_bytes(payload[:1000])
    fetch(file_server.url('/a.bin'), target, sha(payload))
    assert target.read_bytes() == payload
    assert file_server.ranges('/a.bin') == ['bytes=1000-']
    assert not (tmp_path / 'a.bin.part').exists()


def test_server_ignoring_range_gets_a_full_download(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    file_server.plans['/a.bin'] = ['ignore-range']
    target = tmp_path / 'a.bin'
    (tmp_path / 'a.bin.part').write_bytes(b'x' * 1000)
    fetch(file_server.url('/a.bin'), target)
    assert target.read_bytes() == payload
    assert file_server.count('/a.bin') == 1


def test_complete_partial_file_answered_with_416(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    (tmp_path / 'a.bin.part').write_bytes(payload)
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', sha(payload))
    assert (tmp_path / 'a.bin').read_bytes() == payload
    assert file_server.ranges('/a.bin') == [f'bytes={len(payload)}-']


def test_oversized_partial_file_starts_over(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    (tmp_path / 'a.bin.part').write_bytes(payload + b'junk')
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin')
    assert (tmp_path / 'a.bin').read_bytes() == payload
    assert file_server.ranges('/a.bin') == [f'bytes={len(payload) + 4}-', None]


def test_stale_partial_file_with_wrong_hash_is_downloaded_again(file_server, vision_home, payload,
                                                                 tmp_path):
    file_server.files['/a.bin'] = payload
    (tmp_path / 'a.bin.part').write_bytes(b'x' * 1000)  # from another version of the file
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', sha(payload))
    assert (tmp_path / 'a.bin').read_bytes() == payload
    assert file_server.ranges('/a.bin') == ['bytes=1000-', None]


def test_server_errors_are_retried_with_exponential_backoff(file_server, vision_home, payload,
                                                            tmp_path, monkeypatch):
    delays = []
    monkeypatch.setattr(fetch_module.time, 'sleep', delays.append)
    file_server.files['/a.bin'] = payload
    file_server.plans['/a.bin'] = ['500', '503', '500', 'ok']
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', backoff=0.5)
    assert (tmp_path / 'a.bin').read_bytes() == payload
    assert delays == [0.5, 1.0, 2.0]
    assert file_server.count('/a.bin') == 4


def test_server_errors_give_up_after_retries(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    file_server.plans['/a.bin'] = ['500'] * 10
    url = file_server.url('/a.bin')
    with pytest.raises(DownloadError, match='HTTP 500') as info:
        fetch(url, tmp_path / 'a.bin', retries=2)
    assert file_server.count('/a.bin') == 3
    assert '3 attempts' in str(info.value)
    assert info.value.url == url
    assert not (tmp_path / 'a.bin').exists()


def test_progress_resets_the_retry_count(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    file_server.plans['/a.bin'] = ['drop', 'drop', 'drop', 'ok']
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', retries=1)
    assert (tmp_path / 'a.bin').read_bytes() == payload


def test_not_found_fails_at_once_and_says_where_to_put_the_file(file_server, vision_home, tmp_path):
    url = file_server.url('/missing.bin')
    target = tmp_path / 'missing.bin'
    digest = 'ab' * 32
    with pytest.raises(DownloadError) as info:
        fetch(url, target, digest)
    message = str(info.value)
    assert url in message and 'HTTP 404' in message
    assert f'place it at {target} (its sha256 must be {digest})' in message
    assert info.value.path == str(target)
    assert isinstance(info.value, OSError)
    assert file_server.count('/missing.bin') == 1
    assert not os.path.exists(str(target) + '.part')


def test_unreachable_host(vision_home, tmp_path):
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        port = s.getsockname()[1]
    url = f'http://127.0.0.1:{port}/a.bin'
    with pytest.raises(DownloadError, match='Connection refused') as info:
        fetch(url, tmp_path / 'a.bin', retries=1)
    assert url in str(info.value)
    assert str(tmp_path / 'a.bin') in str(info.value)


def test_broken_transfers_keep_the_partial_file_for_the_next_call(file_server, vision_home, payload,
                                                                  tmp_path):
    file_server.files['/a.bin'] = payload
    file_server.plans['/a.bin'] = ['drop', '404']
    with pytest.raises(DownloadError, match='bytes received are kept in'):
        fetch(file_server.url('/a.bin'), tmp_path / 'a.bin')
    kept = (tmp_path / 'a.bin.part').stat().st_size
    assert 0 < kept <= len(payload) // 2
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', sha(payload))
    assert (tmp_path / 'a.bin').read_bytes() == payload
    assert file_server.ranges('/a.bin')[-1] == f'bytes={kept}-'


def test_wrong_hash_leaves_nothing(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    wrong = '0' * 64
    with pytest.raises(HashMismatchError) as info:
        fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', wrong)
    message = str(info.value)
    assert f'have sha256 {sha(payload)}, but {wrong} was expected' in message
    assert info.value.expected == wrong and info.value.actual == sha(payload)
    assert sorted(os.listdir(tmp_path)) == ['a.bin.lock']


def test_file_that_fails_its_check_leaves_nothing(file_server, vision_home, payload, tmp_path):
    file_server.files['/a.bin'] = payload
    file_server.plans['/a.bin'] = ['cut']  # half the file, without a Content-Length

    def check(path):
        return None if os.path.getsize(path) == len(payload) else 'cut short'

    with pytest.raises(CorruptDownloadError, match='the bytes received are cut short; nothing '
                                                   'was written to the cache'):
        fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', check=check)
    assert sorted(os.listdir(tmp_path)) == ['a.bin.lock']
    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', check=check)
    assert (tmp_path / 'a.bin').read_bytes() == payload


def test_partial_file_that_fails_the_check_is_downloaded_again(file_server, vision_home,
                                                                payload, tmp_path):
    file_server.files['/a.bin'] = payload
    (tmp_path / 'a.bin.part').write_bytes(b'x' * 1000)  # from another version of the file

    def check(path):
        with open(path, 'rb') as f:
            return None if f.read(1000) == payload[:1000] else 'not the payload'

    fetch(file_server.url('/a.bin'), tmp_path / 'a.bin', check=check)
    assert (tmp_path / 'a.bin').read_bytes() == payload
    assert file_server.ranges('/a.bin') == ['bytes=1000-', None]


def test_existing_file_with_wrong_hash_is_reported_and_kept(vision_home, tmp_path):
    target = tmp_path / 'a.bin'
    target.write_bytes(b'placed by hand')
    with pytest.raises(HashMismatchError, match='delete it to download it again'):
        fetch('http://127.0.0.1:9/a.bin', target, '0' * 64)
    assert target.read_bytes() == b'placed by hand'


def test_offline_mode(vision_home, tmp_path, monkeypatch):
    monkeypatch.setenv('VISION_OFFLINE', '1')
    target = tmp_path / 'a.bin'
    with pytest.raises(DownloadError, match='VISION_OFFLINE') as info:
        fetch('http://127.0.0.1:9/a.bin', target)
    open(info.value.path, 'wb').close()
    assert fetch('http://127.0.0.1:9/a.bin', target) == str(target)


def test_proxy_from_the_environment_is_used(file_server, vision_home, payload, tmp_path,
                                            monkeypatch):
    file_server.files['/a.bin'] = payload
    for name in ('NO_PROXY', 'no_proxy'):
        monkeypatch.delenv(name)
    monkeypatch.setenv('HTTP_PROXY', file_server.url(''))
    fetch('http://files.example.invalid/a.bin', tmp_path / 'a.bin')
    assert (tmp_path / 'a.bin').read_bytes() == payload
    assert file_server.requests[0].host == 'files.example.invalid'


@pytest.mark.parametrize(('kwargs', 'match'), [
    ({'url': 'ftp://host/a'}, 'url must be an http:// or https:// URL'),
    ({'sha256': 'abc'}, "sha256 must be None or 64 hexadecimal digits, but got 'abc'"),
    ({'retries': -1}, 'retries must be an int >= 0, but got -1'),
    ({'backoff': -1.0}, 'backoff must be >= 0'),
    ({'timeout': 0}, 'timeout must be > 0'),
])
def test_bad_arguments(tmp_path, kwargs, match):
    args = {'url': 'http://127.0.0.1:9/a', 'path': tmp_path / 'a', **kwargs}
    with pytest.raises(ValueError, match=f'download_file: {match}'):
        download_file(**args)


def test_errors_survive_pickling():
    error = HashMismatchError('http://h/a', '/c/a', 'a' * 64, 'b' * 64)
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is HashMismatchError and str(copy) == str(error)
    error = DownloadError('http://h/a', 'HTTP 404 Not Found', '/c/a')
    assert str(pickle.loads(pickle.dumps(error))) == str(error)
    error = CorruptDownloadError('http://h/a', '/c/a', 'cut short')
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is CorruptDownloadError and str(copy) == str(error)


def test_progress_lines_when_not_a_terminal(file_server, vision_home, payload, tmp_path, capsys):
    file_server.files['/a.bin'] = payload
    file_server.plans['/a.bin'] = ['drop', 'ok']
    download_file(file_server.url('/a.bin'), tmp_path / 'a.bin', backoff=0.0)
    out, err = capsys.readouterr()
    assert out == ''
    assert '\r' not in err
    lines = err.splitlines()
    assert lines[0] == f'Downloading {file_server.url("/a.bin")}'
    assert lines[1] == f'  to {tmp_path / "a.bin"}'
    assert 'the connection broke after' in lines[2] and 'retry 1 of 4' in lines[2]
    assert re.fullmatch(r'  resuming at \d+\.\d KiB of 293\.0 KiB', lines[3])
    assert re.fullmatch(r'  done: 293\.0 KiB in \d+\.\d s \(.+/s\)', lines[4])
    assert len(lines) == 5


def test_progress_bar(file_server, vision_home, payload, tmp_path, capsys):
    file_server.files['/a.bin'] = payload
    download_file(file_server.url('/a.bin'), tmp_path / 'a.bin', progress=True)
    err = capsys.readouterr().err
    bar = err.split('\r')[-1]
    assert bar.startswith('  100% 293.0 KiB / 293.0 KiB  ')
    assert '/s  0 s left' in bar
    assert err.endswith('/s)\n')


def test_no_progress(file_server, vision_home, payload, tmp_path, capsys):
    file_server.files['/a.bin'] = payload
    download_file(file_server.url('/a.bin'), tmp_path / 'a.bin', progress=False)
    assert capsys.readouterr() == ('', '')

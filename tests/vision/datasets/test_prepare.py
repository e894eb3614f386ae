"""prepare_dataset: download once, verify, extract all at once, clean up after failures."""

from __future__ import annotations

import hashlib
import os

import pytest

from vision.datasets._prepare import prepare_dataset
from vision.utils.download import DownloadError, HashMismatchError

_ENTRIES = {'data/a.txt': b'alpha\n', 'data/sub/b.txt': b'beta\n'}


def _files(path) -> list[str]:
    return sorted(f for _, _, files in os.walk(path) for f in files if not f.endswith('.lock'))


@pytest.fixture
def archive(file_server, vision_home, make_archive):
    data = make_archive('tar.gz', _ENTRIES)
    return file_server.serve('/pub/data.tar.gz', data), data


@pytest.mark.parametrize('algorithm', ['md5', 'sha1', 'sha256'])
def test_extracts_once_with_checksum(archive, file_server, vision_home, algorithm):
    url, data = archive
    checksum = (algorithm, hashlib.new(algorithm, data).hexdigest().upper())
    root = prepare_dataset('Demo', 'demo', url, 'data', checksum)
    assert root == str(vision_home / 'datasets' / 'demo')
    assert open(os.path.join(root, 'data', 'sub', 'b.txt'), 'rb').read() == b'beta\n'
    assert prepare_dataset('Demo', 'demo', url, 'data', checksum) == root
    assert file_server.count('/pub/data.tar.gz') == 1


@pytest.mark.parametrize('algorithm', ['md5', 'sha1'])
def test_wrong_digest_is_removed(archive, vision_home, algorithm):
    url, _ = archive
    with pytest.raises(DownloadError, match=f'Demo: could not download {url}: the file has '
                                            f'{algorithm} [0-9a-f]+, but 0+ was expected; it '
                                            f'was deleted from the cache'):
        prepare_dataset('Demo', 'demo', url, 'data', (algorithm, '0' * 40))
    assert _files(vision_home / 'downloads') == []
    assert not (vision_home / 'datasets' / 'demo' / 'data').exists()


def test_wrong_sha256_never_enters_the_cache(archive, vision_home):
    url, _ = archive
    with pytest.raises(HashMismatchError, match='nothing was written to the cache'):
        prepare_dataset('Demo', 'demo', url, 'data', ('sha256', '0' * 64))
    assert _files(vision_home / 'downloads') == []
    assert not (vision_home / 'datasets' / 'demo' / 'data').exists()


def test_corrupt_archive(file_server, vision_home, make_archive):
    data = make_archive('tar.gz', _ENTRIES)
    url = file_server.serve('/pub/data.tar.gz', data[:-40])
    with pytest.raises(ValueError, match=r'Demo: the archive .*data\.tar\.gz downloaded from '
                                         r'.* is corrupt or truncated .* deleted from the '
                                         r'cache and nothing was extracted'):
        prepare_dataset('Demo', 'demo', url, 'data')
    assert _files(vision_home / 'downloads') == []
    assert _files(vision_home / 'datasets' / 'demo') == []


def test_not_an_archive(file_server, vision_home):
    url = file_server.serve('/pub/data.zip', b'<html>moved</html>')
    with pytest.raises(ValueError, match='corrupt or truncated'):
        prepare_dataset('Demo', 'demo', url, 'data')
    assert _files(vision_home / 'downloads') == []


def test_missing_marker(archive):
    url, _ = archive
    with pytest.raises(ValueError, match=r'Demo: the archive .* does not hold other; it is not '
                                         r'the archive this dataset expects'):
        prepare_dataset('Demo', 'demo', url, 'other')


def test_http_error(file_server, vision_home):
    with pytest.raises(DownloadError, match='HTTP 404'):
        prepare_dataset('Demo', 'demo', file_server.url('/missing.zip'), 'data')


def test_bad_algorithm(archive):
    with pytest.raises(ValueError, match="algorithm must be one of .* but got 'crc32'"):
        prepare_dataset('Demo', 'demo', archive[0], 'data', ('crc32', '0'))

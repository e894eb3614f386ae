"""Weights without a published hash are verified by their length and their format before they
enter the cache; a cached file that turns out corrupt is named with its fix."""

import io
import re
import zipfile

import pytest

from vision import weights
from vision.utils.download import CorruptDownloadError

_REFETCH = 'vision download --model tiny_classifier_for_tests --weights demo --force'

pytestmark = pytest.mark.filterwarnings('ignore::UserWarning')  # the pin of the first download


def bad_crc(data: bytes) -> bytes:
    """``data``, a zip archive, stored uncompressed with the last byte of its first member
    flipped: a member whose CRC-32 is wrong."""
    stored = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as archive, zipfile.ZipFile(stored, 'w') as out:
        for name in archive.namelist():
            out.writestr(name, archive.read(name))
    data = stored.getvalue()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        info = archive.infolist()[0]
    header = info.header_offset
    start = (header + 30 + int.from_bytes(data[header + 26:header + 28], 'little')
             + int.from_bytes(data[header + 28:header + 30], 'little'))
    end = start + info.compress_size - 1
    return data[:end] + bytes([data[end] ^ 0xff]) + data[end + 1:]


def _fetch():
    return weights.fetch_weight_files('tiny_classifier_for_tests', 'demo', progress=False)


def _assert_nothing_cached(vision_home):
    assert [p.name for p in vision_home.rglob('*') if p.is_file()
            and not p.name.endswith('.lock')] == []


@pytest.mark.parametrize('plan, problem', [
    ('cut', 'not a zip archive'),  # a body cut short, without a Content-Length
    ('understate', 'not a zip archive'),  # a wrong Content-Length
])
def test_a_truncated_npz_is_never_cached(file_server, vision_home, weights_manifest,
                                         weight_row, random_weights, plan, problem):
    _, data = random_weights()
    url = file_server.serve('/w/tiny.npz', data)
    file_server.plans['/w/tiny.npz'] = [plan]
    weights_manifest([weight_row(source={'url': url})])
    with pytest.raises(CorruptDownloadError, match=f'could not download {url}: the bytes '
                                                   f'received are not a valid NPZ file.*'
                                                   f'{problem}.*nothing was written'):
        _fetch()
    _assert_nothing_cached(vision_home)
    with open(_fetch()['tiny.npz'], 'rb') as f:
        assert f.read() == data


def test_an_html_page_served_as_an_npz_is_never_cached(file_server, vision_home,
                                                       weights_manifest, weight_row):
    url = file_server.serve('/w/tiny.npz', b'<!DOCTYPE html>\n<html><body>Sign in to the '
                                           b'network</body></html>')
    weights_manifest([weight_row(source={'url': url})])
    with pytest.raises(CorruptDownloadError, match="not a zip archive: it begins with "
                                                   "'<!DOCTYPE html>.*an HTML page"):
        _fetch()
    _assert_nothing_cached(vision_home)


def test_an_npz_with_a_bad_crc_is_never_cached(file_server, vision_home, weights_manifest,
                                               weight_row, random_weights):
    _, data = random_weights()
    member = zipfile.ZipFile(io.BytesIO(data)).namelist()[0]
    url = file_server.serve('/w/tiny.npz', bad_crc(data))
    weights_manifest([weight_row(source={'url': url})])
    with pytest.raises(CorruptDownloadError, match=f'the member {re.escape(member)} is damaged '
                                                   r'\(Bad CRC-32'):
        _fetch()
    _assert_nothing_cached(vision_home)


def test_a_truncated_checkpoint_is_never_cached(file_server, vision_home, weights_manifest,
                                                weight_row, tiny_checkpoint):
    url = file_server.serve('/w/tiny.pth', tiny_checkpoint)
    file_server.plans['/w/tiny.pth'] = ['cut']
    weights_manifest([weight_row(source={'url': url}, converter='tiny_torch_for_tests')])
    with pytest.raises(CorruptDownloadError, match='not a valid PyTorch checkpoint'):
        _fetch()
    _assert_nothing_cached(vision_home)


def test_a_corrupt_cached_npz_names_itself_and_the_fix(file_server, vision_home,
                                                       weights_manifest, weight_row,
                                                       random_weights, tiny_classifier):
    _, data = random_weights()
    url = file_server.serve('/w/tiny.npz', data)
    weights_manifest([weight_row(source={'url': url})])
    tiny_classifier(pretrained_model='demo')
    [path] = vision_home.rglob('tiny.npz')
    for corrupt, problem in ((bad_crc(data), 'Bad CRC-32'), (data[:-100], 'not a zip')):
        path.write_bytes(corrupt)
        with pytest.raises(weights.CorruptWeightError,
                           match=f'{re.escape(str(path))} .*is corrupt: .*{problem}.*delete it, '
                                 f'or fetch it again with: {_REFETCH}'):
            tiny_classifier(pretrained_model='demo')


def test_a_corrupt_converted_file_names_itself(file_server, vision_home, weights_manifest,
                                               weight_row, tiny_checkpoint, tiny_classifier):
    url = file_server.serve('/w/tiny.pth', tiny_checkpoint)
    weights_manifest([weight_row(source={'url': url}, converter='tiny_torch_for_tests')])
    tiny_classifier(pretrained_model='demo')
    [path] = (vision_home / 'converted').rglob('*.npz')
    path.write_bytes(b'')
    with pytest.raises(weights.CorruptWeightError, match=f'{re.escape(str(path))} .*is corrupt'):
        tiny_classifier(pretrained_model='demo')


def test_a_mismatch_is_not_called_corruption(file_server, vision_home, weights_manifest,
                                             weight_row, tiny_checkpoint, tiny_classifier):
    url = file_server.serve('/w/tiny.pth', tiny_checkpoint)
    weights_manifest([weight_row(source={'url': url}, converter='npz')])
    with pytest.raises(CorruptDownloadError, match='not a valid NPZ file'):
        tiny_classifier(pretrained_model='demo')
    weights_manifest([weight_row(source={'url': url}, converter='tiny_torch_for_tests',
                                 n_class=1001, categories='imagenet_with_background')])
    with pytest.raises(ValueError) as info:
        tiny_classifier(pretrained_model='demo')
    assert not isinstance(info.value, weights.CorruptWeightError)

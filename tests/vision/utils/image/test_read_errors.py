"""A file that cannot be read gives one ImageFileError naming the file and what is wrong."""

import io
import re
import warnings

import numpy
import pytest
from PIL import Image

from vision.utils import read_image, read_label, write_image
from vision.utils.image import ImageFileError

READERS = [read_image, read_label]
PIXELS = numpy.random.default_rng(0).integers(0, 256, (3, 48, 32), dtype=numpy.uint8)


def _encoded(fmt):
    buffer = io.BytesIO()
    write_image(PIXELS, buffer, format=fmt)
    return buffer.getvalue()


def _truncated(fmt):
    data = _encoded(fmt)
    return data[:len(data) // 2]


def _bad_crc(fmt):
    data = bytearray(_encoded(fmt))
    data[-30] ^= 0xff  # inside the image data: zlib's checksum fails while decoding
    return bytes(data)


@pytest.mark.parametrize('reader', READERS)
@pytest.mark.parametrize('fmt, make, what', [
    ('png', _truncated, 'truncated or corrupt'),
    ('jpeg', _truncated, 'truncated or corrupt'),
    ('bmp', _truncated, 'truncated or corrupt'),
    ('png', _bad_crc, 'truncated or corrupt'),
    ('png', lambda fmt: b'', 'not an image Pillow can read'),
    ('png', lambda fmt: b'<html>captive portal</html>', 'not an image Pillow can read'),
])
def test_unreadable_file_names_the_path(tmp_path, reader, fmt, make, what):
    path = tmp_path / f'bad.{fmt}'
    path.write_bytes(make(fmt))
    prefix = rf'{reader.__name__}: cannot read {re.escape(str(path))}: '
    with pytest.raises(ImageFileError, match=prefix + what):
        reader(path)
    with pytest.raises(ImageFileError, match=prefix):
        reader(str(path))


def test_unreadable_file_object():
    with pytest.raises(ImageFileError, match=r'read_image: cannot read <_io.BytesIO object .*>: '
                                             'truncated or corrupt'):
        read_image(io.BytesIO(_truncated('png')))


def test_error_is_an_oserror_and_chains_pillow_error(tmp_path):
    path = tmp_path / 'bad.png'
    path.write_bytes(_truncated('png'))
    with pytest.raises(OSError) as info:
        read_image(path)
    assert 'image file is truncated' in str(info.value)
    assert info.value.__cause__ is not None


def test_missing_file_stays_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_image(tmp_path / 'missing.png')


@pytest.fixture
def small_limit(monkeypatch):
    """Pillow's limit at 100 pixels: it warns beyond 100 and refuses beyond 200."""
    monkeypatch.setattr(Image, 'MAX_IMAGE_PIXELS', 100)
    monkeypatch.delenv('VISION_MAX_IMAGE_PIXELS', raising=False)


@pytest.mark.parametrize('reader', READERS)
def test_decompression_bomb_is_refused_with_the_way_to_allow_it(tmp_path, small_limit, reader):
    path = tmp_path / 'big.png'
    write_image(PIXELS, path)
    advice = (r'if you trust the file, set the environment variable VISION_MAX_IMAGE_PIXELS to '
              r'its number of pixels \(or to none for no limit\), or PIL.Image.MAX_IMAGE_PIXELS '
              r'in Python$')
    with pytest.raises(ImageFileError, match=(
            rf'{reader.__name__}: cannot read {re.escape(str(path))}: too many pixels, it may be '
            r'a decompression bomb \(Image size \(1536 pixels\) exceeds limit of 200 pixels.*\); '
            + advice)):
        reader(path)


@pytest.mark.parametrize('value', ['1536', 'none', 'None'])
def test_environment_variable_allows_large_images(tmp_path, small_limit, monkeypatch, value):
    path = tmp_path / 'big.png'
    write_image(PIXELS, path)
    monkeypatch.setenv('VISION_MAX_IMAGE_PIXELS', value)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        numpy.testing.assert_equal(read_image(path), PIXELS)


def test_bad_environment_variable(tmp_path, monkeypatch):
    path = tmp_path / 'a.png'
    write_image(PIXELS, path)
    monkeypatch.setenv('VISION_MAX_IMAGE_PIXELS', 'lots')
    with pytest.raises(ValueError, match="read_image: the environment variable "
                                         "VISION_MAX_IMAGE_PIXELS must be a positive number of "
                                         "pixels or 'none', but got 'lots'"):
        read_image(path)

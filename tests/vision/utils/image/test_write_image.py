import io

import numpy
import pytest
from PIL import Image

from vision.utils import write_image

SIZE = (48, 32)  # (H, W)
SUFFIX = {'bmp': '.bmp', 'jpeg': '.jpg', 'png': '.png'}


def _read_with_pil(file):
    """(C, H, W) uint8 and mode, read without the code under test."""
    with Image.open(file) as img:
        pixels = numpy.asarray(img)
        mode = img.mode
    pixels = pixels[None] if pixels.ndim == 2 else pixels.transpose(2, 0, 1)
    return pixels, mode


@pytest.mark.parametrize('file_obj', [False, True])
@pytest.mark.parametrize('fmt', ['bmp', 'jpeg', 'png'])
@pytest.mark.parametrize('n_channel', [1, 3])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.uint8, bool])
def test_write_image(tmp_path, file_obj, fmt, n_channel, dtype):
    img = numpy.random.default_rng(0).integers(0, 255, (n_channel,) + SIZE).astype(dtype)
    if file_obj:
        file = io.BytesIO()
        write_image(img, file, format=fmt)
        file.seek(0)
    else:
        file = tmp_path / ('img' + SUFFIX[fmt])
        write_image(img, file)
    pixels, mode = _read_with_pil(file)
    assert mode == ('RGB' if n_channel == 3 else 'L')
    assert pixels.shape == (n_channel,) + SIZE
    if fmt != 'jpeg':
        numpy.testing.assert_equal(pixels, img.astype(numpy.uint8))


def test_rgba(tmp_path):
    img = numpy.random.default_rng(0).integers(0, 256, (4,) + SIZE, dtype=numpy.uint8)
    write_image(img, str(tmp_path / 'a.png'))
    pixels, mode = _read_with_pil(tmp_path / 'a.png')
    assert mode == 'RGBA'
    numpy.testing.assert_equal(pixels, img)


def test_clips_and_rounds(tmp_path):
    img = numpy.array([[[-3.0, 0.4, 127.5, 128.6, 254.5, 300.0]]], dtype=numpy.float32)
    write_image(img, tmp_path / 'a.png')
    numpy.testing.assert_equal(_read_with_pil(tmp_path / 'a.png')[0],
                               [[[0, 0, 128, 129, 254, 255]]])
    write_image(numpy.array([[[-1, 256, 1000]]]), tmp_path / 'b.png')
    numpy.testing.assert_equal(_read_with_pil(tmp_path / 'b.png')[0], [[[0, 255, 255]]])


@pytest.mark.parametrize('shape', [(32, 48), (2, 32, 48), (1, 3, 32, 48)])
def test_bad_shape(tmp_path, shape):
    with pytest.raises(ValueError, match=r'write_image: img must have shape \(C, H, W\)'):
        write_image(numpy.zeros(shape), tmp_path / 'a.png')

"""16-bit images: a 0-65535 gradient reads back as a 0-255 gradient, not clipped to white.

The files are real: written by Pillow where it can write the mode, or as PNG bytes by hand
(Pillow writes no 16-bit colour PNG).
"""

import struct
import zlib

import numpy
import pytest
from PIL import Image

from vision.utils import read_image

WIDTH = 256
GRADIENT = numpy.linspace(0, 65535, WIDTH).round().astype(numpy.uint16)[None].repeat(4, axis=0)
SCALED = GRADIENT.astype(numpy.float64) / 257  # 65535 / 255 = 257


def _write_png(path, pixels, color_type):
    """Writes ``pixels`` (H, W, bands) as a 16-bit PNG of ``color_type`` (0 gray, 2 RGB,
    4 gray with alpha, 6 RGBA)."""
    H, W = pixels.shape[:2]
    rows = b''.join(b'\x00' + pixels[y].astype('>u2').tobytes() for y in range(H))

    def chunk(kind, data):
        return (struct.pack('>I', len(data)) + kind + data
                + struct.pack('>I', zlib.crc32(kind + data)))

    header = struct.pack('>IIBBBBB', W, H, 16, color_type, 0, 0, 0)
    path.write_bytes(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header)
                     + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b''))


def _gray_file(tmp_path, kind):
    """A 16-bit grayscale file that Pillow opens in mode ``kind``."""
    if kind == 'I;16':  # a 16-bit grayscale PNG
        path = tmp_path / 'gray.png'
        Image.fromarray(GRADIENT).save(path)
    elif kind == 'I;16B':  # a big-endian 16-bit TIFF
        path = tmp_path / 'gray.tif'
        Image.fromarray(GRADIENT.astype('>u2')).save(path)
    else:  # 'I': a 16-bit PGM (maxval 65535)
        path = tmp_path / 'gray.pgm'
        Image.fromarray(GRADIENT.astype(numpy.int32)).save(path)
    with Image.open(path) as img:
        assert img.mode == kind
    return path


@pytest.mark.parametrize('kind', ['I;16', 'I;16B', 'I'])
@pytest.mark.parametrize('color', [True, False])
def test_16bit_gray_is_scaled(tmp_path, kind, color):
    img = read_image(_gray_file(tmp_path, kind), color=color)
    assert img.shape == ((3 if color else 1),) + GRADIENT.shape and img.dtype == numpy.float32
    numpy.testing.assert_allclose(img, numpy.broadcast_to(SCALED, img.shape), rtol=1e-6)
    assert img[:, :, 0].max() == 0 and img[:, :, -1].min() == 255


def test_16bit_gray_as_uint8_is_rounded(tmp_path):
    img = read_image(_gray_file(tmp_path, 'I;16'), dtype=numpy.uint8)
    numpy.testing.assert_equal(img[0], numpy.rint(SCALED).astype(numpy.uint8))


def test_32bit_values_beyond_16_bits_are_clipped(tmp_path):
    path = tmp_path / 'wide.tif'
    Image.fromarray(numpy.array([[-5, 0, 65535, 70000]], numpy.int32)).save(path)
    numpy.testing.assert_equal(read_image(path, color=False)[0, 0], [0, 0, 255, 255])


def test_16bit_gray_with_transparent_value(tmp_path):
    path = tmp_path / 'gray.png'
    Image.fromarray(GRADIENT).save(path, transparency=int(GRADIENT[0, 1]))
    with pytest.raises(ValueError, match=r'transparency \(mode I;16\)'):
        read_image(path)
    img = read_image(path, alpha='blend_with_black')
    expect = SCALED.copy()
    expect[:, 1] = 0
    numpy.testing.assert_allclose(img, numpy.broadcast_to(expect, img.shape), rtol=1e-6)
    numpy.testing.assert_allclose(read_image(path, alpha='ignore')[0], SCALED, rtol=1e-6)


def test_16bit_rgb(tmp_path):
    rgb = numpy.stack([GRADIENT, GRADIENT[:, ::-1], numpy.full_like(GRADIENT, 32768)], axis=-1)
    _write_png(tmp_path / 'rgb.png', rgb, 2)
    img = read_image(tmp_path / 'rgb.png')
    expect = rgb.transpose(2, 0, 1) / 257
    # Pillow keeps the high byte of each 16-bit sample: within one level of the scaled value.
    numpy.testing.assert_allclose(img, expect, atol=1)
    numpy.testing.assert_equal(img[0, :, [0, -1]], [[0] * 4, [255] * 4])


def test_16bit_rgba(tmp_path):
    rgba = numpy.stack([GRADIENT, GRADIENT, GRADIENT, numpy.full_like(GRADIENT, 65535)], -1)
    _write_png(tmp_path / 'rgba.png', rgba, 6)
    img = read_image(tmp_path / 'rgba.png', alpha='blend_with_black')
    numpy.testing.assert_allclose(img, numpy.broadcast_to(SCALED, img.shape), atol=1)

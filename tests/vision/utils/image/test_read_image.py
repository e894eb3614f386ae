import importlib.util
import io
import pathlib
import sys
import types

import numpy
import pytest
from PIL import Image

from vision.utils import read_image, write_image

CV2_INSTALLED = importlib.util.find_spec('cv2') is not None
SIZE = (48, 32)  # (H, W)
SUFFIX = {'bmp': '.bmp', 'jpeg': '.jpg', 'png': '.png'}


def _file(tmp_path, file_type, fmt, save):
    """Saves an image with ``save(target, format)`` and returns what read_image gets."""
    if file_type == 'obj':
        buffer = io.BytesIO()
        save(buffer, fmt)
        buffer.seek(0)
        return buffer
    path = tmp_path / ('img' + SUFFIX[fmt])
    save(str(path), None)
    return path if file_type == 'path' else str(path)


def _random(n_channel, seed=0):
    return numpy.random.default_rng(seed).integers(0, 256, (n_channel,) + SIZE, dtype=numpy.uint8)


def _luma(rgb):
    """ITU-R 601-2 luma, as an independent reference for grayscale reading."""
    r, g, b = rgb.astype(numpy.float64)
    return 0.299 * r + 0.587 * g + 0.114 * b


def _save_pil(mode, pixels, **kwargs):
    def save(target, fmt):
        Image.fromarray(pixels, mode).save(target, format=fmt, **kwargs)
    return save


@pytest.mark.parametrize('file_type', ['str', 'path', 'obj'])
@pytest.mark.parametrize('fmt', ['bmp', 'jpeg', 'png'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.uint8, bool])
@pytest.mark.parametrize('n_channel', [1, 3])
def test_round_trip(tmp_path, file_type, fmt, dtype, n_channel):
    expect = _random(n_channel)
    file = _file(tmp_path, file_type, fmt, lambda t, f: write_image(expect, t, format=f))

    color = read_image(file, dtype=dtype)
    if file_type == 'obj':
        file.seek(0)
    gray = read_image(file, dtype=dtype, color=False)

    assert color.shape == (3,) + SIZE and color.dtype == dtype
    assert gray.shape == (1,) + SIZE and gray.dtype == dtype
    if fmt != 'jpeg':
        numpy.testing.assert_equal(color, numpy.broadcast_to(expect, color.shape).astype(dtype))
        if n_channel == 1:
            numpy.testing.assert_equal(gray, expect.astype(dtype))


def test_default_dtype_and_layout(tmp_path):
    path = tmp_path / 'a.png'
    write_image(_random(3), path)
    img = read_image(path)
    assert img.dtype == numpy.float32
    assert img.flags.c_contiguous and img.flags.writeable and img.flags.owndata
    img[:] = 0
    numpy.testing.assert_equal(img, 0)


def test_grayscale_of_color_image_is_luma(tmp_path):
    rgb = _random(3)
    path = tmp_path / 'a.png'
    write_image(rgb, path)
    gray = read_image(path, color=False)
    numpy.testing.assert_allclose(gray[0], _luma(rgb), atol=1)


def test_jpeg_is_close(tmp_path):
    smooth = numpy.broadcast_to(numpy.linspace(0, 255, SIZE[1]), (3,) + SIZE).astype(numpy.uint8)
    path = tmp_path / 'a.jpg'
    write_image(smooth, path)
    assert numpy.abs(read_image(path) - smooth).mean() < 2


def _rgba():
    rng = numpy.random.default_rng(1)
    rgba = rng.integers(0, 256, SIZE + (4,), dtype=numpy.uint8)
    rgba[0, 0, 3], rgba[0, 1, 3] = 0, 255  # fully transparent and fully opaque pixels
    return rgba


@pytest.mark.parametrize('color', [True, False])
def test_rgba_without_alpha_option_raises(tmp_path, color):
    file = _file(tmp_path, 'str', 'png', _save_pil('RGBA', _rgba()))
    with pytest.raises(ValueError, match=r"read_image: the image has transparency \(mode RGBA\)"):
        read_image(file, color=color)


def test_rgba_options(tmp_path):
    rgba = _rgba()
    file = _file(tmp_path, 'path', 'png', _save_pil('RGBA', rgba))
    rgb = rgba[..., :3].astype(numpy.float64).transpose(2, 0, 1)
    weight = rgba[..., 3].astype(numpy.float64) / 255

    numpy.testing.assert_equal(read_image(file, alpha='ignore'), rgb)
    black = read_image(file, alpha='blend_with_black')
    white = read_image(file, alpha='blend_with_white')
    numpy.testing.assert_allclose(black, rgb * weight, rtol=1e-5, atol=1e-3)
    numpy.testing.assert_allclose(white, rgb * weight + 255 * (1 - weight), rtol=1e-5, atol=1e-3)
    numpy.testing.assert_equal(black[:, 0, 0], 0)
    numpy.testing.assert_equal(white[:, 0, 0], 255)
    numpy.testing.assert_equal(white[:, 0, 1], rgb[:, 0, 1])

    as_uint8 = read_image(file, dtype=numpy.uint8, alpha='blend_with_white')
    numpy.testing.assert_equal(as_uint8, numpy.rint(white).astype(numpy.uint8))
    gray = read_image(file, color=False, alpha='blend_with_white')
    numpy.testing.assert_allclose(gray[0], _luma(rgb) * weight + 255 * (1 - weight), atol=1)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.uint8, bool])
@pytest.mark.parametrize('alpha', ['ignore', 'blend_with_white', 'blend_with_black'])
def test_rgba_shapes_and_dtypes(tmp_path, dtype, alpha):
    file = _file(tmp_path, 'obj', 'png', _save_pil('RGBA', _rgba()))
    img = read_image(file, dtype=dtype, alpha=alpha)
    assert img.shape == (3,) + SIZE and img.dtype == dtype


def test_gray_with_alpha(tmp_path):
    la = _rgba()[..., [0, 3]]
    file = _file(tmp_path, 'str', 'png', _save_pil('LA', la))
    with pytest.raises(ValueError, match=r'transparency \(mode LA\)'):
        read_image(file)
    img = read_image(file, alpha='blend_with_black', color=False)
    numpy.testing.assert_allclose(img[0], la[..., 0] * (la[..., 1] / 255), atol=1e-3)
    numpy.testing.assert_equal(read_image(file, alpha='ignore'),
                               numpy.broadcast_to(la[..., 0], (3,) + SIZE))


def _palette_image():
    palette = numpy.random.default_rng(2).integers(0, 256, (256, 3), dtype=numpy.uint8)
    index = numpy.random.default_rng(3).integers(0, 4, SIZE, dtype=numpy.uint8)
    img = Image.fromarray(index, 'L').convert('P')
    img.putpalette(palette.ravel().tolist())
    return img, index, palette


def test_palette_image_gives_palette_colors(tmp_path):
    img, index, palette = _palette_image()
    img.save(tmp_path / 'p.png')
    read = read_image(tmp_path / 'p.png')
    numpy.testing.assert_equal(read, palette[index].transpose(2, 0, 1))


def test_palette_image_with_transparent_index(tmp_path):
    img, index, palette = _palette_image()
    img.save(tmp_path / 'p.png', transparency=2)
    with pytest.raises(ValueError, match=r'transparency \(mode P\)'):
        read_image(tmp_path / 'p.png')
    read = read_image(tmp_path / 'p.png', alpha='blend_with_white')
    expect = numpy.where((index == 2)[..., None], 255, palette[index]).transpose(2, 0, 1)
    numpy.testing.assert_equal(read, expect)


# The displayed image for each EXIF orientation, computed with NumPy on (H, W, C) pixels.
ORIENTATIONS = {
    1: lambda a: a,
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1],
    5: lambda a: a.swapaxes(0, 1),
    6: lambda a: numpy.rot90(a, -1),
    7: lambda a: a[::-1, ::-1].swapaxes(0, 1),
    8: lambda a: numpy.rot90(a, 1),
}


def _save_with_orientation(target, pixels, orientation, fmt, **kwargs):
    exif = Image.Exif()
    exif[0x0112] = orientation
    Image.fromarray(pixels).save(target, format=fmt, exif=exif, **kwargs)


@pytest.mark.parametrize('orientation', sorted(ORIENTATIONS))
def test_exif_orientation_png(tmp_path, orientation):
    raw = _random(3).transpose(1, 2, 0)
    _save_with_orientation(tmp_path / 'o.png', raw, orientation, None)
    expect = ORIENTATIONS[orientation](raw).transpose(2, 0, 1)
    numpy.testing.assert_equal(read_image(tmp_path / 'o.png'), expect)


@pytest.mark.parametrize('orientation', [3, 6, 8])
def test_exif_rotated_jpeg(tmp_path, orientation):
    # Four flat quadrants survive JPEG compression; only their places matter.
    raw = numpy.zeros((32, 48, 3), numpy.uint8)
    raw[:16, :24] = (255, 0, 0)
    raw[:16, 24:] = (0, 255, 0)
    raw[16:, :24] = (0, 0, 255)
    raw[16:, 24:] = (255, 255, 255)
    buffer = io.BytesIO()
    _save_with_orientation(buffer, raw, orientation, 'jpeg', quality=95)
    buffer.seek(0)
    img = read_image(buffer)
    expect = ORIENTATIONS[orientation](raw).transpose(2, 0, 1).astype(numpy.float32)
    assert img.shape == expect.shape
    assert numpy.abs(img - expect).mean() < 4


def test_bad_alpha_option(tmp_path):
    path = tmp_path / 'a.png'
    write_image(_random(3), path)
    with pytest.raises(ValueError, match="read_image: alpha must be None, 'ignore'.* but got 'x'"):
        read_image(path, alpha='x')


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_image(pathlib.Path(tmp_path / 'missing.png'))


def _set_chainer_config(monkeypatch, **options):
    """Installs a stand-in ``chainer`` module whose ``config`` holds ``options``, as a ChainerCV
    test run with ``chainer.using_config`` would have."""
    config = types.SimpleNamespace(**options)
    monkeypatch.setitem(sys.modules, 'chainer', types.SimpleNamespace(config=config))


# Ported from ChainerCV's tests/utils_tests/image_tests/test_read_image.py.
@pytest.mark.parametrize('backend', [None, 'PIL', 'cv2'])
def test_chainercv_backend_switch(tmp_path, monkeypatch, backend):
    if backend == 'cv2' and CV2_INSTALLED:
        pytest.skip('cv2 is installed')
    path = tmp_path / 'a.png'
    write_image(_random(3), path)
    _set_chainer_config(monkeypatch, cv_read_image_backend=backend)
    if backend == 'cv2':
        with pytest.raises(ValueError, match="read_image: chainer.config.cv_read_image_backend "
                                             "is 'cv2', but cv2 is not installed"):
            read_image(path)
    else:
        numpy.testing.assert_equal(read_image(path, dtype=numpy.uint8), _random(3))


def test_chainercv_invalid_backend(tmp_path, monkeypatch):
    path = tmp_path / 'a.png'
    write_image(_random(3), path)
    _set_chainer_config(monkeypatch, cv_read_image_backend='PII')
    with pytest.raises(ValueError, match="read_image: chainer.config.cv_read_image_backend must "
                                         "be 'cv2', 'PIL' or None, but got 'PII'"):
        read_image(path)

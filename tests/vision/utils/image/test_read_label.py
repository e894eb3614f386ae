import io

import numpy
import pytest
from PIL import Image

from vision.utils import read_label, write_image

SIZE = (48, 32)  # (H, W)


def _ids(high=256, dtype=numpy.uint8):
    return numpy.random.default_rng(0).integers(0, high, SIZE).astype(dtype)


@pytest.mark.parametrize('suffix', ['bmp', 'jpg', 'png'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.uint8, numpy.int32, bool])
def test_grayscale_round_trip(tmp_path, suffix, dtype):
    expect = _ids()
    path = tmp_path / f'label.{suffix}'
    write_image(expect[None], path)
    label = read_label(path, dtype=dtype)
    assert label.shape == SIZE and label.dtype == dtype
    if suffix != 'jpg':
        numpy.testing.assert_equal(label, expect.astype(dtype))


def test_defaults_and_mutable(tmp_path):
    path = tmp_path / 'label.png'
    write_image(_ids()[None], path)
    label = read_label(path)
    assert label.dtype == numpy.int32
    label[:] = 0
    numpy.testing.assert_equal(label, 0)


def test_palette_gives_indices_not_colors(tmp_path):
    ids = _ids(21)
    img = Image.fromarray(ids, 'L').convert('P')
    # A VOC-like palette: the colours differ from the indices.
    img.putpalette(numpy.random.default_rng(1).integers(0, 256, 768).tolist())
    buffer = io.BytesIO()
    img.save(buffer, format='png')
    buffer.seek(0)
    numpy.testing.assert_equal(read_label(buffer), ids)


def test_16_bit_ids(tmp_path):
    ids = _ids(5000, numpy.uint16)
    Image.fromarray(ids).save(tmp_path / 'l.png')
    numpy.testing.assert_equal(read_label(tmp_path / 'l.png'), ids)


def test_binary_image(tmp_path):
    ids = _ids(2).astype(bool)
    Image.fromarray(ids).save(tmp_path / 'l.png')
    numpy.testing.assert_equal(read_label(tmp_path / 'l.png'), ids.astype(numpy.int32))


def test_alpha_band_dropped(tmp_path):
    ids = _ids(30)
    img = Image.fromarray(ids, 'L')
    img.putalpha(Image.fromarray(_ids()))
    img.save(tmp_path / 'l.png')
    numpy.testing.assert_equal(read_label(tmp_path / 'l.png'), ids)


def test_gray_saved_as_rgb_is_accepted(tmp_path):
    ids = _ids()
    write_image(numpy.broadcast_to(ids, (3,) + SIZE), tmp_path / 'l.png')
    numpy.testing.assert_equal(read_label(tmp_path / 'l.png'), ids)


def test_color_image_raises(tmp_path):
    write_image(numpy.random.default_rng(0).integers(0, 256, (3,) + SIZE), tmp_path / 'l.png')
    with pytest.raises(ValueError, match=r'read_label: .* colour image \(mode RGB\)'):
        read_label(tmp_path / 'l.png')


def test_exif_orientation_follows_the_image(tmp_path):
    ids = _ids(10)
    exif = Image.Exif()
    exif[0x0112] = 6  # displayed rotated 90 degrees clockwise
    Image.fromarray(ids).save(tmp_path / 'l.png', exif=exif)
    numpy.testing.assert_equal(read_label(tmp_path / 'l.png'), numpy.rot90(ids, -1))

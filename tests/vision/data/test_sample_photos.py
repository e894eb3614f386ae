"""The sample photos are the ones the MTCNN fixtures were made from, pixel for pixel."""

from __future__ import annotations

import hashlib
import json
import pathlib

import numpy
import pytest

from vision.data import sample_photos

DATA = pathlib.Path(__file__).resolve().parents[2] / 'data' / 'mtcnn'


@pytest.mark.parametrize('name, shape', [
    ('group_photo', (3, 1080, 1920)), ('grace_hopper_gray_small', (1, 188, 160)),
    ('noise', (3, 480, 640))])
def test_photo_is_the_one_of_the_fixture(name, shape):
    img = sample_photos.PHOTOS[name]()
    assert img.shape == shape and img.dtype == numpy.float32
    assert (img == numpy.rint(img)).all() and img.min() >= 0 and img.max() <= 255
    with open(DATA / f'{name}.json', encoding='utf-8') as f:
        ref = json.load(f)
    assert ref['size_wh'] == [shape[2], shape[1]]
    pixels = numpy.ascontiguousarray(img.astype(numpy.uint8)).tobytes()
    assert hashlib.sha256(pixels).hexdigest() == ref['image_sha256_uint8_chw']


def test_group_photo_pastes_each_copy_where_the_layout_says():
    img = sample_photos.group_photo()
    head = sample_photos.grace_hopper()[:, sample_photos.HEAD_CROP[0], sample_photos.HEAD_CROP[1]]
    top, left, width, mirrored = sample_photos.GROUP_PHOTO_LAYOUT[0]
    height = round(head.shape[1] * width / head.shape[2])
    numpy.testing.assert_array_equal(img[:, top:top + height, left:left + width],
                                     sample_photos.resize(head, (height, width)))
    assert any(m for *_, m in sample_photos.GROUP_PHOTO_LAYOUT)


def test_resize_keeps_a_constant_image_and_whole_numbers():
    img = numpy.full((2, 7, 9), 100.0, numpy.float32)
    for size in ((3, 4), (7, 9), (20, 31)):
        out = sample_photos.resize(img, size)
        assert out.shape == (2,) + size
        numpy.testing.assert_array_equal(out, 100)

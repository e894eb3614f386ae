import numpy
import pytest

from vision.transforms import random_expand, translate_bbox


# Ported from ChainerCV's tests/transforms_tests/bbox_tests/test_translate_bbox.py.
def test_chainercv_translate_bbox():
    bbox = numpy.random.uniform(low=0., high=32., size=(10, 4))
    out = translate_bbox(bbox, y_offset=5, x_offset=3)
    expected = numpy.empty_like(bbox)
    expected[:, 0] = bbox[:, 0] + 5
    expected[:, 1] = bbox[:, 1] + 3
    expected[:, 2] = bbox[:, 2] + 5
    expected[:, 3] = bbox[:, 3] + 3
    numpy.testing.assert_array_equal(out, expected)


def test_boxes_follow_random_expand(random_bbox, draw, pixel_extent):
    size = (12, 17)
    bbox = random_bbox(6, size, 1, 10)
    rng = numpy.random.default_rng(0)
    for _ in range(8):
        img, param = random_expand(draw(bbox, size), return_param=True, rng=rng)
        out = translate_bbox(bbox, param['y_offset'], param['x_offset'])
        assert out.dtype == numpy.float32
        numpy.testing.assert_array_equal(out, pixel_extent(img))


def test_negative_offsets_as_a_crop(random_bbox, draw, pixel_extent):
    size = (12, 17)
    bbox = random_bbox(6, size, 1, 5) + numpy.float32(5)
    img = draw(bbox, (20, 25))[:, 5:, 5:]
    numpy.testing.assert_array_equal(translate_bbox(bbox, -5, -5), pixel_extent(img))


def test_bad_offset():
    with pytest.raises(TypeError, match="translate_bbox: x_offset must be a real number, but "
                                        "got '3'"):
        translate_bbox(numpy.zeros((1, 4)), 1, '3')


def test_offsets_default_to_zero():
    # Each offset left out does not move the boxes along its axis.
    bbox = numpy.array([[1, 2, 3, 4], [0.5, 0, 7, 9]], numpy.float32)
    numpy.testing.assert_array_equal(translate_bbox(bbox), bbox)
    numpy.testing.assert_array_equal(translate_bbox(bbox, 2), bbox + [2, 0, 2, 0])
    numpy.testing.assert_array_equal(translate_bbox(bbox, x_offset=-1), bbox + [0, -1, 0, -1])
    assert translate_bbox(bbox) is not bbox

import numpy
import pytest

from vision.transforms import flip, flip_bbox, random_flip


# Ported from ChainerCV's tests/transforms_tests/bbox_tests/test_flip_bbox.py.
def test_chainercv_flip_bbox(random_bbox):
    bbox = random_bbox(10, (32, 32), 0, 32, integer=False)
    out = flip_bbox(bbox, size=(34, 32), y_flip=True)
    expected = bbox.copy()
    expected[:, 0] = 34 - bbox[:, 2]
    expected[:, 2] = 34 - bbox[:, 0]
    numpy.testing.assert_array_equal(out, expected)

    out = flip_bbox(bbox, size=(34, 32), x_flip=True)
    expected = bbox.copy()
    expected[:, 1] = 32 - bbox[:, 3]
    expected[:, 3] = 32 - bbox[:, 1]
    numpy.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize('y_flip', [False, True])
@pytest.mark.parametrize('x_flip', [False, True])
def test_boxes_follow_the_flipped_image(random_bbox, draw, pixel_extent, y_flip, x_flip):
    size = (21, 30)
    bbox = random_bbox(8, size, 1, 15)
    img = flip(draw(bbox, size), y_flip=y_flip, x_flip=x_flip)
    out = flip_bbox(bbox, size, y_flip=y_flip, x_flip=x_flip)
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out, pixel_extent(img))


def test_boxes_follow_random_flip(random_bbox, draw, pixel_extent):
    size = (16, 12)
    bbox = random_bbox(5, size, 1, 10)
    rng = numpy.random.default_rng(0)
    for _ in range(8):
        img, param = random_flip(draw(bbox, size), y_random=True, x_random=True,
                                 return_param=True, rng=rng)
        numpy.testing.assert_array_equal(flip_bbox(bbox, size, **param), pixel_extent(img))


def test_empty_and_unchanged():
    bbox = numpy.zeros((0, 4), numpy.float32)
    assert flip_bbox(bbox, (4, 4), True, True).shape == (0, 4)
    bbox = numpy.array([[1, 2, 3, 4]], numpy.float64)
    out = flip_bbox(bbox, (4, 4))
    numpy.testing.assert_array_equal(out, bbox)
    assert out is not bbox


def test_bad_arguments():
    with pytest.raises(TypeError, match='flip_bbox: bbox must be a floating-point array, but '
                                        'got dtype int64'):
        flip_bbox(numpy.zeros((1, 4), numpy.int64), (4, 4))
    with pytest.raises(ValueError, match=r'flip_bbox: bbox must have shape \(R, 4\), but got '
                                         r'shape \(2, 3\)'):
        flip_bbox(numpy.zeros((2, 3)), (4, 4))
    with pytest.raises(ValueError, match='flip_bbox: size must be a pair of positive numbers'):
        flip_bbox(numpy.zeros((2, 4)), (4, 0))

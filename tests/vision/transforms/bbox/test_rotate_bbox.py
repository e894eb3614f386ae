import numpy
import pytest

from vision.transforms import random_rotate, rotate, rotate_bbox


# Ported from ChainerCV's tests/transforms_tests/bbox_tests/test_rotate_bbox.py.
@pytest.mark.parametrize('angle', [180, 90, 0, -90, -180])
def test_chainercv_rotate_bbox(random_bbox, angle):
    size = (32, 24)
    bbox = random_bbox(10, size, 0, 24, integer=False)
    out = rotate_bbox(bbox, angle, size)
    rotate_size = size[::-1] if angle % 180 != 0 else size
    out = rotate_bbox(out, -1 * angle, rotate_size)
    numpy.testing.assert_almost_equal(out, bbox, decimal=6)


@pytest.mark.parametrize('angle', [0, 90, 180, 270, 360, -90, -270, 450, 90.0])
def test_boxes_follow_quarter_turns_exactly(random_bbox, draw, pixel_extent, angle):
    size = (15, 22)
    bbox = random_bbox(8, size, 1, 12)
    img = rotate(draw(bbox, size), angle)
    out = rotate_bbox(bbox, angle, size)
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out, pixel_extent(img))


def test_boxes_follow_random_rotate(random_bbox, draw, pixel_extent):
    size = (9, 14)
    bbox = random_bbox(5, size, 1, 8)
    rng = numpy.random.default_rng(0)
    for _ in range(8):
        img, param = random_rotate(draw(bbox, size), return_param=True, rng=rng)
        numpy.testing.assert_array_equal(rotate_bbox(bbox, 90 * param['k'], size),
                                         pixel_extent(img))


@pytest.mark.parametrize('expand', [True, False])
def test_boxes_enclose_the_object_at_any_angle(random_bbox, draw, pixel_extent,
                                               centres_inside, expand):
    # With nearest-neighbour sampling, a pixel is drawn when its centre comes from inside the
    # box; so every drawn pixel centre is in the rotated box, hence in the enclosing box, and
    # the enclosing box is at most a pixel larger than the drawn pixels on each side.
    size = (24, 31)
    bbox = random_bbox(6, size, 4, 14)
    rng = numpy.random.default_rng(1)
    for angle in numpy.concatenate((rng.uniform(-180, 180, 12), [45, -135, 30])):
        img = rotate(draw(bbox, size), angle, expand=expand, interpolation='nearest')
        out = rotate_bbox(bbox, angle, size, expand=expand)
        drawn = img > 0.5
        assert (drawn <= centres_inside(out, img.shape[1:], 1e-4)).all()
        if expand:
            extent = pixel_extent(img)
            assert (out[:, :2] >= extent[:, :2] - 1.01).all()
            assert (out[:, 2:] <= extent[:, 2:] + 1.01).all()


def test_a_square_at_45_degrees():
    bbox = numpy.array([[4, 4, 6, 6]], numpy.float32)  # side 2 at the centre of 10 x 10
    out = rotate_bbox(bbox, 45, (10, 10))
    H, W = rotate(numpy.zeros((1, 10, 10), numpy.float32), 45).shape[1:]
    half = numpy.sqrt(2)
    numpy.testing.assert_allclose(out, [[H / 2 - half, W / 2 - half, H / 2 + half,
                                         W / 2 + half]], rtol=1e-6)


def test_empty_and_bad():
    assert rotate_bbox(numpy.zeros((0, 4), numpy.float32), 30, (5, 5)).shape == (0, 4)
    with pytest.raises(ValueError, match='rotate_bbox: size must be a pair of positive ints'):
        rotate_bbox(numpy.zeros((1, 4)), 30, (5, 0))

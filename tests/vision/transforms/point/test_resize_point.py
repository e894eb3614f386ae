import numpy
import pytest

from vision.transforms import resize, resize_point


# Ported from ChainerCV's tests/transforms_tests/point_tests/test_resize_point.py.
def test_chainercv_resize_point_ndarray():
    point = numpy.random.uniform(low=0., high=32., size=(3, 12, 2))
    out = resize_point(point, in_size=(16, 32), out_size=(8, 64))
    point[:, :, 0] *= 0.5
    point[:, :, 1] *= 2
    numpy.testing.assert_array_equal(out, point)


def test_chainercv_resize_point_list():
    point = [numpy.random.uniform(low=0., high=32., size=(12, 2)),
             numpy.random.uniform(low=0., high=32., size=(10, 2))]
    out = resize_point(point, in_size=(16, 32), out_size=(8, 64))
    for i, pnt in enumerate(point):
        pnt[:, 0] *= 0.5
        pnt[:, 1] *= 2
        numpy.testing.assert_array_equal(out[i], pnt)


def test_points_follow_the_resized_image():
    # Under nearest-neighbour enlargement by integers, a point in a marked pixel lands in one
    # of the copies of that pixel.
    rng = numpy.random.default_rng(0)
    size, out_size = (7, 9), (21, 18)
    point = (rng.uniform(0, 1, (1, 6, 2)) * numpy.array(size)).astype(numpy.float32)
    img = numpy.zeros((1,) + size, numpy.float32)
    pixel = numpy.floor(point[0]).astype(int)
    img[0, pixel[:, 0], pixel[:, 1]] = 1
    img = resize(img, out_size, 'nearest')
    out = resize_point(point, size, out_size)
    assert out.dtype == numpy.float32
    moved = numpy.floor(out[0]).astype(int)
    assert (img[0, moved[:, 0], moved[:, 1]] == 1).all()


def test_empty():
    assert resize_point(numpy.zeros((0, 3, 2)), (2, 2), (4, 4)).shape == (0, 3, 2)
    assert resize_point([], (2, 2), (4, 4)) == []


def test_bad_size():
    with pytest.raises(ValueError, match='resize_point: out_size must be a pair of positive'):
        resize_point(numpy.zeros((1, 3, 2)), (2, 2), (4, -4))

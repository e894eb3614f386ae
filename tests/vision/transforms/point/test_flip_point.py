import numpy
import pytest

from vision.transforms import flip, flip_point


# Ported from ChainerCV's tests/transforms_tests/point_tests/test_flip_point.py.
def test_chainercv_flip_point_ndarray():
    point = numpy.random.uniform(low=0., high=32., size=(3, 12, 2))
    out = flip_point(point, size=(34, 32), y_flip=True)
    expected = point.copy()
    expected[:, :, 0] = 34 - point[:, :, 0]
    numpy.testing.assert_array_equal(out, expected)

    out = flip_point(point, size=(34, 32), x_flip=True)
    expected = point.copy()
    expected[:, :, 1] = 32 - point[:, :, 1]
    numpy.testing.assert_array_equal(out, expected)


def test_chainercv_flip_point_list():
    point = [numpy.random.uniform(low=0., high=32., size=(12, 2)),
             numpy.random.uniform(low=0., high=32., size=(10, 2))]
    out = flip_point(point, size=(34, 32), y_flip=True)
    assert isinstance(out, list)
    for pnt, o in zip(point, out):
        expected = pnt.copy()
        expected[:, 0] = 34 - pnt[:, 0]
        numpy.testing.assert_array_equal(o, expected)

    out = flip_point(point, size=(34, 32), x_flip=True)
    for pnt, o in zip(point, out):
        expected = pnt.copy()
        expected[:, 1] = 32 - pnt[:, 1]
        numpy.testing.assert_array_equal(o, expected)


@pytest.mark.parametrize('y_flip', [False, True])
@pytest.mark.parametrize('x_flip', [False, True])
def test_points_follow_the_flipped_image(y_flip, x_flip):
    # A point anywhere inside a marked pixel stays inside it after the flip.
    rng = numpy.random.default_rng(0)
    size = (11, 16)
    point = rng.uniform(0, 1, (2, 5, 2)) * numpy.array(size)
    img = numpy.zeros((2,) + size, numpy.float32)
    pixel = numpy.floor(point).astype(int)
    for r in range(2):
        img[r, pixel[r, :, 0], pixel[r, :, 1]] = 1
    img = flip(img, y_flip=y_flip, x_flip=x_flip)
    out = flip_point(point.astype(numpy.float32), size, y_flip=y_flip, x_flip=x_flip)
    assert out.dtype == numpy.float32
    moved = numpy.floor(out).astype(int)
    for r in range(2):
        assert (img[r, moved[r, :, 0], moved[r, :, 1]] == 1).all()


def test_bad_points():
    with pytest.raises(ValueError, match=r'flip_point: point must be a 3-dimensional array '
                                         r'\(R, K, 2\), but got shape \(5, 2\)'):
        flip_point(numpy.zeros((5, 2)), (4, 4))
    with pytest.raises(ValueError, match=r'flip_point: point\[1\] must have shape \(K, 2\)'):
        flip_point([numpy.zeros((5, 2)), numpy.zeros((5, 3))], (4, 4))
    with pytest.raises(TypeError, match='flip_point: point must be a numpy.ndarray'):
        flip_point(3.0, (4, 4))
    with pytest.raises(TypeError, match='flip_point: point must be a floating-point array'):
        flip_point(numpy.zeros((1, 5, 2), numpy.int32), (4, 4))

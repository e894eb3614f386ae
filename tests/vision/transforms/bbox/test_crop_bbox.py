import numpy
import pytest

from vision.transforms import crop_bbox, random_crop, random_sized_crop

# Ported from ChainerCV's tests/transforms_tests/bbox_tests/test_crop_bbox.py.
BBOX = numpy.array(((0, 0, 3, 4), (0, 0, 5, 6), (0, 5, 3, 6), (1, 2, 3, 4), (3, 3, 4, 6)),
                   dtype=numpy.float32)


def test_chainercv_crop_bbox():
    out, param = crop_bbox(BBOX, y_slice=slice(1, 5), x_slice=slice(0, 4), return_param=True)
    expected = numpy.array(((0, 0, 2, 4), (0, 0, 4, 4), (0, 2, 2, 4), (2, 3, 3, 4)),
                           dtype=numpy.float32)
    numpy.testing.assert_array_equal(out, expected)
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(param['index'], (0, 1, 3, 4))
    numpy.testing.assert_array_equal(param['truncated_index'], (0, 1, 3))


def test_chainercv_disallow_outside_center():
    out, param = crop_bbox(BBOX, y_slice=slice(1, 5), x_slice=slice(0, 4),
                           allow_outside_center=False, return_param=True)
    expected = numpy.array(((0, 0, 2, 4), (0, 0, 4, 4), (0, 2, 2, 4)), dtype=numpy.float32)
    numpy.testing.assert_array_equal(out, expected)
    numpy.testing.assert_array_equal(param['index'], (0, 1, 3))
    numpy.testing.assert_array_equal(param['truncated_index'], (0, 1))


def _check_follows(bbox, img, y_slice, x_slice, pixel_extent):
    """The kept boxes are the boxes with pixels in the crop, and each one is their extent."""
    crop = img[:, y_slice, x_slice]
    out, param = crop_bbox(bbox, y_slice=y_slice, x_slice=x_slice, return_param=True)
    visible = numpy.flatnonzero(crop.any(axis=(1, 2)))
    numpy.testing.assert_array_equal(param['index'], visible)
    numpy.testing.assert_array_equal(out, pixel_extent(crop[visible]))
    clipped = numpy.flatnonzero(crop[visible].sum(axis=(1, 2)) < img[visible].sum(axis=(1, 2)))
    numpy.testing.assert_array_equal(param['truncated_index'], clipped)


def test_boxes_follow_random_crops(random_bbox, draw, pixel_extent):
    size = (30, 40)
    bbox = random_bbox(20, size, 1, 20)
    img = draw(bbox, size)
    rng = numpy.random.default_rng(0)
    for _ in range(10):
        _, param = random_crop(img, (15, 12), return_param=True, rng=rng)
        _check_follows(bbox, img, param['y_slice'], param['x_slice'], pixel_extent)
        _, param = random_sized_crop(img, return_param=True, rng=rng)
        _check_follows(bbox, img, param['y_slice'], param['x_slice'], pixel_extent)


@pytest.mark.parametrize('y_slice, x_slice', [
    (None, None), (slice(None, 4), None), (None, slice(2, None)), (slice(3, None), slice(1))])
def test_open_sides(random_bbox, draw, pixel_extent, y_slice, x_slice):
    size = (12, 10)
    bbox = random_bbox(15, size, 1, 8)
    img = draw(bbox, size)
    _check_follows(bbox, img, y_slice or slice(None), x_slice or slice(None), pixel_extent)
    out = crop_bbox(bbox, y_slice, x_slice)
    numpy.testing.assert_array_equal(out, crop_bbox(bbox, y_slice or slice(None),
                                                    x_slice or slice(None)))


def test_center_on_the_edge():
    bbox = numpy.array([[0, 0, 4, 4], [0, 0, 2, 2], [3, 3, 5, 5]], numpy.float32)
    out, param = crop_bbox(bbox, slice(1, 3), slice(1, 3), allow_outside_center=False,
                           return_param=True)
    # Centres (2, 2) inside, (1, 1) on the start side: inside; (4, 4) outside.
    numpy.testing.assert_array_equal(param['index'], (0, 1))
    numpy.testing.assert_array_equal(out, [[0, 0, 2, 2], [0, 0, 1, 1]])


def test_zero_area_boxes_are_removed():
    bbox = numpy.array([[2, 2, 2, 5], [1, 1, 3, 3]], numpy.float32)
    out, param = crop_bbox(bbox, slice(0, 10), slice(0, 10), return_param=True)
    numpy.testing.assert_array_equal(param['index'], [1])
    assert crop_bbox(numpy.zeros((0, 4), numpy.float32), slice(0, 2)).shape == (0, 4)


def test_bad_slices():
    with pytest.raises(TypeError, match='crop_bbox: y_slice must be a slice or None, but got '
                                        'tuple'):
        crop_bbox(BBOX, (0, 3))
    with pytest.raises(ValueError, match='crop_bbox: x_slice must have a non-negative start'):
        crop_bbox(BBOX, None, slice(-3, None))
    with pytest.raises(ValueError, match='crop_bbox: x_slice must have a step of 1'):
        crop_bbox(BBOX, None, slice(0, 4, 2))


def test_center_on_the_stop_side_is_outside():
    # The region is [start, stop): a centre exactly on the stop (y, then x) is outside and the
    # box removed, though it still overlaps the region; just before the stop it is kept.
    bbox = numpy.array([[2, 0, 4, 2], [0, 2, 2, 4], [1.5, 1.5, 4.4, 4.4]], numpy.float32)
    out, param = crop_bbox(bbox, slice(0, 3), slice(0, 3), allow_outside_center=False,
                           return_param=True)
    numpy.testing.assert_array_equal(param['index'], [2])
    numpy.testing.assert_array_equal(out, [[1.5, 1.5, 3, 3]])
    numpy.testing.assert_array_equal(param['truncated_index'], [0])
    assert len(crop_bbox(bbox, slice(0, 3), slice(0, 3))) == 3


def test_center_of_a_wide_box():
    # The centre is ((y_min + y_max) / 2, (x_min + x_max) / 2): a box far right of the origin
    # whose centre (1, 11) is in rows [0, 4) and columns [8, 14) is kept (its y_min and
    # x_max would give 6, outside the rows), and one whose centre is at column 7 is not.
    bbox = numpy.array([[0, 10, 2, 12], [0, 4, 2, 10]], numpy.float64)
    out, param = crop_bbox(bbox, slice(0, 4), slice(8, 14), allow_outside_center=False,
                           return_param=True)
    numpy.testing.assert_array_equal(param['index'], [0])
    numpy.testing.assert_array_equal(out, [[0, 2, 2, 4]])

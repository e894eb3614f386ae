import numpy
import pytest

from vision.transforms import resize, resize_bbox, resize_contain, translate_bbox


# Ported from ChainerCV's tests/transforms_tests/bbox_tests/test_resize_bbox.py.
def test_chainercv_resize_bbox(random_bbox):
    bbox = random_bbox(10, (32, 32), 0, 32, integer=False)
    out = resize_bbox(bbox, in_size=(32, 32), out_size=(64, 128))
    expected = bbox.copy()
    expected[:, 0] = bbox[:, 0] * 2
    expected[:, 1] = bbox[:, 1] * 4
    expected[:, 2] = bbox[:, 2] * 2
    expected[:, 3] = bbox[:, 3] * 4
    numpy.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize('out_size', [(26, 60), (13, 40), (39, 20)])
def test_boxes_follow_the_image_scaled_by_integers(random_bbox, draw, pixel_extent, out_size):
    size = (13, 20)
    bbox = random_bbox(8, size, 1, 10)
    img = resize(draw(bbox, size), out_size, 'nearest')
    numpy.testing.assert_array_equal(resize_bbox(bbox, size, out_size), pixel_extent(img))


def _assert_drawn_at_centres(img, bbox, centres_inside, eps=1e-4):
    drawn = img > 0.5
    assert (drawn <= centres_inside(bbox, img.shape[1:], eps)).all()
    assert (centres_inside(bbox, img.shape[1:], -eps) <= drawn).all()


@pytest.mark.parametrize('out_size', [(17, 31), (9, 7), (50, 23), (6, 10)])
def test_pixel_centres_inside_the_resized_boxes(random_bbox, draw, centres_inside, out_size):
    # Nearest-neighbour resizing samples the input at the output pixel centres, so a pixel is
    # drawn exactly when its centre is inside the resized box (up to Pillow's rounding when a
    # centre falls on an edge).
    size = (13, 20)
    bbox = random_bbox(8, size, 1, 10)
    img = resize(draw(bbox, size), out_size, 'nearest')
    out = resize_bbox(bbox, size, out_size)
    _assert_drawn_at_centres(img, out, centres_inside)


@pytest.mark.parametrize('canvas', [(8, 20), (30, 30), (16, 24), (12, 50)])
def test_boxes_follow_resize_contain(random_bbox, draw, centres_inside, canvas):
    size = (16, 24)
    bbox = random_bbox(6, size, 1, 10)
    img, param = resize_contain(draw(bbox, size), canvas, interpolation='nearest',
                                return_param=True)
    out = translate_bbox(resize_bbox(bbox, size, param['scaled_size']), param['y_offset'],
                         param['x_offset'])
    _assert_drawn_at_centres(img, out, centres_inside)


def test_dtype_and_bad_sizes():
    bbox = numpy.array([[1, 2, 3, 4]], numpy.float32)
    out = resize_bbox(bbox, (3, 4), (5, 7))
    assert out.dtype == numpy.float32
    numpy.testing.assert_allclose(out, [[5 / 3, 7 / 2, 5, 7]], rtol=1e-6)
    with pytest.raises(ValueError, match='resize_bbox: in_size must be a pair of positive'):
        resize_bbox(bbox, (0, 3), (3, 3))
    with pytest.raises(ValueError, match='resize_bbox: out_size must be a pair of positive'):
        resize_bbox(bbox, (3, 3), 3)

import numpy
import pytest
from PIL import Image

from vision.transforms import resize
from vision.utils import generate_random_bbox, mask_to_bbox, scale_mask


def _pil_nearest(mask, out_H, out_W):
    """Each mask resized on its own by Pillow's nearest-neighbour filter."""
    return numpy.stack([
        numpy.asarray(Image.fromarray(m.astype(numpy.uint8)).resize((out_W, out_H),
                                                                    Image.NEAREST)) > 0
        for m in mask]).reshape(len(mask), out_H, out_W)


def test_scale_mask_simple():
    mask = numpy.array([[[False, False], [False, True]]])
    out = scale_mask(mask, mask_to_bbox(mask), 4)
    assert isinstance(out, numpy.ndarray)
    assert out.dtype == bool
    numpy.testing.assert_equal(out, [[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 1, 1], [0, 0, 1, 1]]])


def test_scale_mask_equals_resize_of_whole_mask():
    numpy.random.seed(0)
    H, W, n_inst = 80, 90, 10
    mask = numpy.zeros((n_inst, H, W), dtype=bool)
    bbox = generate_random_bbox(n_inst, (H, W), 10, 30).astype(numpy.int32)
    for i, (y_min, x_min, y_max, x_max) in enumerate(bbox):
        m = numpy.random.randint(0, 2, size=(y_max - y_min, x_max - x_min))
        m[5, 5] = 1
        mask[i, y_min:y_max, x_min:x_max] = m
    out = scale_mask(mask, mask_to_bbox(mask), H * 2)
    expected = resize(mask.astype(numpy.float32), (H * 2, W * 2),
                      interpolation=Image.NEAREST).astype(bool)
    numpy.testing.assert_equal(out, expected)


@pytest.mark.parametrize('shape, size, out_shape', [
    ((3, 17, 23), 10, (10, 13)), ((2, 23, 17), 10, (13, 10)), ((2, 9, 9), 31, (31, 31)),
    ((4, 50, 31), 7, (11, 7)), ((1, 5, 40), 64, (64, 512)),
])
def test_scale_mask_matches_pillow(shape, size, out_shape):
    rng = numpy.random.default_rng(sum(shape) + size)
    mask = rng.uniform(size=shape) < 0.4
    out = scale_mask(mask, mask_to_bbox(mask), size)
    assert out.shape == (shape[0],) + out_shape
    numpy.testing.assert_equal(out, _pil_nearest(mask, *out_shape))


def test_scale_mask_reads_only_inside_bbox():
    mask = numpy.ones((1, 4, 4), bool)
    bbox = numpy.array([[0.5, 1, 2, 3.5]], numpy.float32)  # widened to rows 0-1, columns 1-3
    out = scale_mask(mask, bbox, 8)
    expected = numpy.zeros((8, 8), bool)
    expected[0:4, 2:8] = True
    numpy.testing.assert_equal(out[0], expected)


def test_scale_mask_invalid():
    mask = numpy.zeros((2, 4, 4), bool)
    with pytest.raises(ValueError, match=r'scale_mask: bbox must have one row per mask, '
                                         r'\(R, 4\) with R = 2, but got shape \(1, 4\)'):
        scale_mask(mask, numpy.zeros((1, 4)), 8)
    with pytest.raises(ValueError, match='size must be positive, but got 0'):
        scale_mask(mask, numpy.zeros((2, 4)), 0)
    with pytest.raises(TypeError, match='size must be an int, but got float'):
        scale_mask(mask, numpy.zeros((2, 4)), 8.0)
    with pytest.raises(ValueError, match='mask must have a positive height and width'):
        scale_mask(numpy.zeros((2, 0, 4), bool), numpy.zeros((2, 4)), 8)

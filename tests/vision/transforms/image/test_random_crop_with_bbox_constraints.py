import random

import numpy
import pytest

from vision.transforms import crop_bbox, random_crop_with_bbox_constraints
from vision.utils import bbox_iou


def _img(H=60, W=80):
    return numpy.arange(3 * H * W, dtype=numpy.float32).reshape(3, H, W)


def _bbox():
    return numpy.array([[10, 10, 40, 50], [5, 30, 55, 75]], numpy.float32)


@pytest.mark.parametrize('seed', range(10))
def test_the_region_meets_its_constraint(seed):
    img, bbox = _img(), _bbox()
    out, param = random_crop_with_bbox_constraints(
        img, bbox, return_param=True, rng=numpy.random.default_rng(seed))
    y, x = param['y_slice'], param['x_slice']
    numpy.testing.assert_array_equal(out, img[:, y, x])
    if param['constraint'] is None:
        assert (y, x) == (slice(0, 60), slice(0, 80))
        return
    min_iou, max_iou = param['constraint']
    crop = numpy.array([[y.start, x.start, y.stop, x.stop]], numpy.float32)
    iou = bbox_iou(bbox, crop)
    assert min_iou <= iou.min() and iou.max() <= max_iou
    assert 0 <= y.start < y.stop <= 60 and 0 <= x.start < x.stop <= 80
    h, w = y.stop - y.start, x.stop - x.start
    assert 0.3 * 0.3 * 60 * 80 * 0.99 <= h * w
    crop_bbox(bbox, y_slice=y, x_slice=x, allow_outside_center=False)


def test_every_constraint_is_reached():
    rng = numpy.random.default_rng(0)
    seen = {random_crop_with_bbox_constraints(_img(), _bbox(), return_param=True,
                                              rng=rng)[1]['constraint'] for _ in range(200)}
    assert None in seen and len(seen) >= 5


def test_without_boxes_the_whole_image_is_kept():
    img = _img()
    out, param = random_crop_with_bbox_constraints(img, numpy.zeros((0, 4), numpy.float32),
                                                   return_param=True)
    assert out.shape == img.shape and param['constraint'] is None


def test_global_random_state_reproduces():
    random.seed(3)
    a = random_crop_with_bbox_constraints(_img(), _bbox(), return_param=True)[1]
    random.seed(3)
    b = random_crop_with_bbox_constraints(_img(), _bbox(), return_param=True)[1]
    assert a == b


def test_bad_boxes_are_refused():
    with pytest.raises(ValueError, match=r'bbox must have shape \(R, 4\)'):
        random_crop_with_bbox_constraints(_img(), numpy.zeros((2, 3)))

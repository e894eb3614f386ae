"""The box contract the five box transforms share: their errors name the function and
``bbox`` (matched whole), and integer boxes are refused because the transforms write new
coordinates in the dtype of the boxes."""

import re

import numpy
import pytest

from vision.transforms import crop_bbox, flip_bbox, resize_bbox, rotate_bbox, translate_bbox

TRANSFORMS = {
    'crop_bbox': lambda bbox: crop_bbox(bbox, slice(0, 4), slice(0, 4)),
    'flip_bbox': lambda bbox: flip_bbox(bbox, (4, 4), y_flip=True),
    'resize_bbox': lambda bbox: resize_bbox(bbox, (4, 4), (8, 8)),
    'rotate_bbox': lambda bbox: rotate_bbox(bbox, 90, (4, 4)),
    'translate_bbox': lambda bbox: translate_bbox(bbox, 1, 2),
}


@pytest.mark.parametrize('name', sorted(TRANSFORMS))
@pytest.mark.parametrize('dtype', [numpy.int64, numpy.int32, numpy.uint8])
def test_integer_boxes_are_refused(name, dtype):
    # 'a floating-point array' (not 'an integer or floating-point array'): the transforms
    # take floating-point boxes only.
    message = f'{name}: bbox must be a floating-point array, but got dtype {numpy.dtype(dtype)}'
    with pytest.raises(TypeError, match=f'^{re.escape(message)}$'):
        TRANSFORMS[name](numpy.array([[0, 0, 2, 2]], dtype))


@pytest.mark.parametrize('name', sorted(TRANSFORMS))
def test_bad_shapes_are_refused(name):
    message = f'{name}: bbox must have shape (R, 4), but got shape (1, 5)'
    with pytest.raises(ValueError, match=f'^{re.escape(message)}$'):
        TRANSFORMS[name](numpy.zeros((1, 5), numpy.float32))


@pytest.mark.parametrize('name', sorted(TRANSFORMS))
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_floating_boxes_keep_their_dtype(name, dtype):
    out = TRANSFORMS[name](numpy.array([[1, 1, 3, 2]], dtype))
    assert out.dtype == dtype and out.shape == (1, 4)

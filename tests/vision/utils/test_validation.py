"""The box contract has one check: every function taking boxes raises the same errors."""

import numpy
import pytest

from vision.evaluations import calc_detection_voc_prec_rec
from vision.transforms import flip_bbox
from vision.utils import bbox_iou
from vision.utils._validation import ShapeError, as_bbox
from vision.visualizations import draw_bbox

_BOX = numpy.array([[0, 0, 2, 2]], numpy.float32)
_CALLS = {
    'bbox_iou': (lambda bbox: bbox_iou(bbox, _BOX), 'bbox_a'),
    'flip_bbox': (lambda bbox: flip_bbox(bbox, (4, 4)), 'bbox'),
    'calc_detection_voc_prec_rec': (lambda bbox: calc_detection_voc_prec_rec(
        [bbox], [numpy.zeros(len(bbox), numpy.int32)], [numpy.ones(len(bbox))], [_BOX],
        [numpy.zeros(1, numpy.int32)]), r'pred_bboxes\[0\]'),
    'draw_bbox': (lambda bbox: draw_bbox(numpy.zeros((3, 4, 4), numpy.float32), bbox),
                  'bbox'),
}


@pytest.mark.parametrize('fname', list(_CALLS))
@pytest.mark.parametrize('shape', [(3, 5), (4,), (1, 2, 4)])
def test_a_box_of_the_wrong_shape_raises_one_error_everywhere(fname, shape):
    call, name = _CALLS[fname]
    shape_text = str(shape).replace('(', r'\(').replace(')', r'\)')
    with pytest.raises(ShapeError, match=rf'^{fname}: {name} must have shape \(R, 4\), but got '
                                         rf'shape {shape_text}$') as error:
        call(numpy.zeros(shape, numpy.float32))
    assert isinstance(error.value, ValueError) and isinstance(error.value, IndexError)


@pytest.mark.parametrize('fname', list(_CALLS))
def test_a_box_of_the_wrong_dtype_raises_a_type_error_everywhere(fname):
    call, name = _CALLS[fname]
    with pytest.raises(TypeError, match=rf'^{fname}: {name} must be an? [a-z -]+ array, but got '
                                        r'dtype bool$'):
        call(numpy.zeros((1, 4), bool))


def test_as_bbox():
    bbox = numpy.zeros((2, 4), numpy.int32)
    assert as_bbox('f', 'bbox', bbox) is bbox
    assert as_bbox('f', 'bbox', [[0., 0., 1., 1.]]).shape == (1, 4)
    empty = as_bbox('f', 'bbox', [], empty_means_none=True)
    assert empty.shape == (0, 4) and empty.dtype == numpy.float64
    with pytest.raises(ShapeError, match=r'f: bbox must have shape \(R, 4\), but got shape '
                                         r'\(0,\)'):
        as_bbox('f', 'bbox', [])
    with pytest.raises(TypeError, match='f: bbox must be a floating-point array, but got dtype '
                                        'int32'):
        as_bbox('f', 'bbox', bbox, kinds='f')
    with pytest.raises(TypeError, match='f: bbox must be a numeric array, but got dtype object'):
        as_bbox('f', 'bbox', [[None] * 4])

"""mask_voting: ChainerCV's merged masks, boxes, labels and scores on random inputs (with and
without the limit binding), one region giving its own mask back, and no region giving none."""

from __future__ import annotations

import numpy
import pytest

from vision.models.instance.fcis import mask_voting

ARGS = {'score_thresh': 0.1, 'nms_thresh': 0.3, 'mask_merge_thresh': 0.5, 'binary_thresh': 0.4}


@pytest.mark.parametrize('limit', [100, 5])
def test_the_merged_masks_are_chainercvs(chainercv_fcis, limit):
    inputs = {k: chainercv_fcis[f'voting/inputs/{k}'] for k in ('seg_prob', 'bbox', 'cls_prob')}
    size = tuple(chainercv_fcis['voting/inputs/size'])
    outputs = mask_voting(inputs['seg_prob'], inputs['bbox'], inputs['cls_prob'], size,
                          limit=limit, **ARGS)
    expected = [chainercv_fcis[f'voting/{limit}/{k}'] for k in ('seg_prob', 'bbox', 'label',
                                                                 'score')]
    assert len(expected[0]) == (16 if limit == 100 else 5)
    for actual, reference in zip(outputs, expected):
        assert actual.dtype == reference.dtype and actual.shape == reference.shape
        numpy.testing.assert_allclose(actual, reference, rtol=1e-6, atol=1e-6)


def test_one_region_gives_its_own_mask():
    seg_prob = numpy.zeros((1, 4, 4), numpy.float32)
    seg_prob[0, 1:3, 1:3] = 1
    bbox = numpy.array([[10, 20, 30, 40]], numpy.float32)
    cls_prob = numpy.array([[0.1, 0.9]], numpy.float32)
    v_seg_prob, v_bbox, v_label, v_score = mask_voting(seg_prob, bbox, cls_prob, (50, 60),
                                                       limit=10, **ARGS)
    # the mask resized to the 20x20 box covers its centre: the merged box is within it
    assert v_label.tolist() == [0] and v_score.tolist() == [numpy.float32(0.9)]
    y_min, x_min, y_max, x_max = v_bbox[0]
    assert 10 < y_min < y_max < 30 and 20 < x_min < x_max < 40
    assert v_seg_prob.shape == (1, 4, 4) and (v_seg_prob >= 0).all() and (v_seg_prob <= 1).all()


def test_no_region_gives_no_mask():
    outputs = mask_voting(numpy.zeros((0, 21, 21), numpy.float32),
                          numpy.zeros((0, 4), numpy.float32), numpy.zeros((0, 5), numpy.float32),
                          (30, 40), **ARGS)
    for output, shape, dtype in zip(outputs, [(0, 21, 21), (0, 4), (0,), (0,)],
                                    [numpy.float32, numpy.float32, numpy.int32, numpy.float32]):
        assert output.shape == shape and output.dtype == dtype


def test_of_tied_regions_the_later_one_is_kept():
    seg_prob = numpy.ones((2, 4, 4), numpy.float32)
    bbox = numpy.array([[10, 10, 30, 30], [12, 12, 30, 30]], numpy.float32)
    cls_prob = numpy.array([[0.2, 0.8], [0.2, 0.8]], numpy.float32)
    # the second suppresses the first (IoU 0.81) and, voting alone, gives its own box
    _, v_bbox, _, _ = mask_voting(seg_prob, bbox, cls_prob, (40, 40),
                                  **{**ARGS, 'mask_merge_thresh': 0.9})
    numpy.testing.assert_array_equal(v_bbox, bbox[1:])

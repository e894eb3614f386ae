"""FCIS's ProposalTargetCreator: ChainerCV's samples, masks, labels and offsets with NumPy's
global state seeded alike; its masks inside the regions, -1 for background; a generator's
draws; Faster R-CNN's sampling and boxes shared."""

from __future__ import annotations

import numpy

from vision.models.detection.faster_rcnn import ProposalTargetCreator as FasterRCNNCreator
from vision.models.instance.fcis import ProposalTargetCreator


def _inputs(chainercv_fcis):
    return [chainercv_fcis[f'target/inputs/{k}'] for k in ('roi', 'mask', 'label', 'bbox')]


def test_the_targets_are_chainercvs(chainercv_fcis):
    numpy.random.seed(int(chainercv_fcis['target/seed']))
    outputs = ProposalTargetCreator()(*_inputs(chainercv_fcis), mask_size=21)
    for output, key in zip(outputs, ('sample_roi', 'gt_roi_mask', 'gt_roi_label',
                                     'gt_roi_loc')):
        expected = chainercv_fcis[f'target/{key}']
        assert output.dtype == expected.dtype and output.shape == expected.shape, key
        numpy.testing.assert_allclose(output, expected, rtol=1e-6, atol=1e-6, err_msg=key)


def test_masks_of_foreground_regions_only(chainercv_fcis):
    roi, mask, label, bbox = _inputs(chainercv_fcis)
    sample_roi, gt_roi_mask, gt_roi_label, gt_roi_loc = ProposalTargetCreator(n_sample=32)(
        roi, mask, label, bbox, mask_size=7, rng=numpy.random.default_rng(0))
    fg = gt_roi_label > 0
    assert gt_roi_mask.shape == (len(sample_roi), 7, 7) and gt_roi_mask.dtype == numpy.int32
    assert fg.any() and (gt_roi_mask[~fg] == -1).all()
    assert set(numpy.unique(gt_roi_mask[fg])) <= {0, 1} and gt_roi_mask[fg].sum() > 0
    # the regions, labels and offsets are Faster R-CNN's for the same draws
    expected = FasterRCNNCreator(n_sample=32, neg_iou_thresh_lo=0.1)(
        roi, bbox, label, (0., 0., 0., 0.), (0.2, 0.2, 0.5, 0.5),
        rng=numpy.random.default_rng(0))
    for output, reference in zip((sample_roi, gt_roi_loc, gt_roi_label), expected):
        numpy.testing.assert_array_equal(output, reference)


def test_a_box_that_is_the_region_gives_its_mask():
    mask = numpy.zeros((1, 20, 20), bool)
    mask[0, 4:16, 2:8] = True  # the left half of the box (4, 2, 16, 14)
    bbox = numpy.array([[4, 2, 16, 14]], numpy.float32)
    creator = ProposalTargetCreator(n_sample=1, pos_ratio=1.)
    sample_roi, gt_roi_mask, gt_roi_label, _ = creator(
        numpy.zeros((0, 4), numpy.float32), mask, numpy.array([3], numpy.int32), bbox,
        mask_size=6, rng=numpy.random.default_rng(0))
    numpy.testing.assert_array_equal(sample_roi, bbox)
    assert gt_roi_label.tolist() == [4]
    numpy.testing.assert_array_equal(gt_roi_mask[0], numpy.repeat([[1, 1, 1, 0, 0, 0]], 6, 0))

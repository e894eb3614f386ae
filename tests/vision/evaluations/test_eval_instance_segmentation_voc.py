import numpy
import pytest

from vision.evaluations import (
    calc_instance_segmentation_voc_prec_rec,
    eval_instance_segmentation_voc,
)
from vision.utils.testing import product_dict

T, F = True, False


# ChainerCV's own cases.

@pytest.mark.parametrize('case', product_dict(
    [{'pred_masks': [[[[F, F], [T, T]], [[T, T], [F, T]], [[T, F], [T, T]]]],
      'pred_labels': [[0, 0, 0]], 'pred_scores': [[0.8, 0.9, 1]],
      'gt_masks': [[[[T, T], [F, F]]]], 'gt_labels': [[0]]}],
    [{'iou_thresh': 0.5, 'prec': [[0., 1 / 2, 1 / 3]], 'rec': [[0., 1., 1.]]},
     {'iou_thresh': 0.97, 'prec': [[0., 0., 0.]], 'rec': [[0., 0., 0.]]}]) + [
    {'pred_masks': [[[[F, F], [T, T]], [[T, T], [F, F]]],
                    [[[T, T], [T, T]], [[T, T], [F, T]], [[T, F], [T, T]]]],
     'pred_labels': [[0, 0], [0, 2, 2]], 'pred_scores': [[1, 0.9], [0.7, 0.6, 0.8]],
     'gt_masks': [[[[F, T], [T, T]], [[T, T], [T, F]]], [[[T, F], [F, T]]]],
     'gt_labels': [[0, 0], [2]], 'iou_thresh': 0.5,
     'prec': [[1., 1., 2 / 3], None, [1., 0.5]], 'rec': [[1 / 2, 1., 1.], None, [1., 1.]]},
    {'pred_masks': [[[[F, T], [T, F]], [[T, F], [F, T]], [[T, F], [T, F]]]],
     'pred_labels': [[0, 0, 0]], 'pred_scores': [[0.8, 0.9, 1]],
     'gt_masks': [[[[F, T], [T, T]], [[T, T], [F, T]]]], 'gt_labels': [[0, 0]],
     'iou_thresh': 0.5, 'prec': [[0, 1 / 2, 2 / 3]], 'rec': [[0, 1 / 2, 1.]]},
])
def test_calc_instance_segmentation_voc_prec_rec_chainercv(case):
    prec, rec = calc_instance_segmentation_voc_prec_rec(
        *((numpy.array(value) for value in case[key])
          for key in ('pred_masks', 'pred_labels', 'pred_scores', 'gt_masks', 'gt_labels')),
        iou_thresh=case['iou_thresh'])
    for got, expected in ((prec, case['prec']), (rec, case['rec'])):
        assert len(got) == len(expected)
        for got_l, expected_l in zip(got, expected):
            if expected_l is None:
                assert got_l is None
            else:
                numpy.testing.assert_equal(got_l, expected_l)


# Hand-computed cases.

def test_eval_instance_segmentation_voc_hand_computed():
    # Class 0: one object, found by the second-ranked prediction (IoU 3/4); the first has
    # IoU 1/4. Precision 0, 1/2 at recall 0, 1: AP 1/2.
    gt = numpy.array([[[T, T], [T, T]]])
    pred = numpy.array([[[T, F], [F, F]], [[T, T], [T, F]]])
    result = eval_instance_segmentation_voc([pred], [[0, 0]], [[0.9, 0.1]], [gt], [[0]])
    numpy.testing.assert_allclose(result['ap'], [0.5])
    assert result['map'] == pytest.approx(0.5)
    assert result['protocol']['metric'] == 'voc_instance_segmentation'
    result = eval_instance_segmentation_voc([pred], [[0, 0]], [[0.9, 0.1]], [gt], [[0]],
                                            iou_thresh=0.8)
    numpy.testing.assert_allclose(result['ap'], [0.])


def test_empty_masks_match_as_in_chainercv():
    # Two empty masks have a NaN IoU, which is not below the threshold: a match.
    empty = numpy.zeros((1, 2, 2), bool)
    prec, rec = calc_instance_segmentation_voc_prec_rec([empty], [[0]], [[1.]], [empty], [[0]])
    numpy.testing.assert_equal(rec[0], [1])


def test_empty_predictions_and_ground_truth():
    no_mask = numpy.zeros((0, 3, 3), bool)
    mask = numpy.ones((1, 3, 3), bool)
    prec, rec = calc_instance_segmentation_voc_prec_rec([no_mask], [[]], [[]], [mask], [[1]])
    assert prec[0] is None and prec[1].shape == (0,) and rec[1].shape == (0,)
    prec, rec = calc_instance_segmentation_voc_prec_rec([mask], [[1]], [[1.]], [no_mask], [[]])
    numpy.testing.assert_equal(prec[1], [0])
    assert rec[1] is None


# Against a direct implementation.

def _reference_prec_rec(pred_masks, pred_labels, pred_scores, gt_masks, gt_labels,
                        iou_thresh):
    n_class = max(max(numpy.max(lb, initial=-1) for lb in pred_labels),
                  max(numpy.max(lb, initial=-1) for lb in gt_labels)) + 1
    prec, rec = [], []
    for lb in range(n_class):
        scores, matches, n_pos = [], [], 0
        for mask, label, score, gt_mask, gt_label in zip(pred_masks, pred_labels, pred_scores,
                                                         gt_masks, gt_labels):
            gts = [g for g, gl in zip(gt_mask, gt_label) if gl == lb]
            n_pos += len(gts)
            taken = [False] * len(gts)
            for i in numpy.argsort(-score):
                if label[i] != lb:
                    continue
                scores.append(score[i])
                ious = [(mask[i] & g).sum() / (mask[i] | g).sum() for g in gts]
                j = int(numpy.argmax(ious)) if ious else -1
                if j < 0 or ious[j] < iou_thresh:
                    matches.append(0)
                else:
                    matches.append(0 if taken[j] else 1)
                    taken[j] = True
        if not scores and not n_pos:
            prec.append(None)
            rec.append(None)
            continue
        match = numpy.array(matches)[numpy.argsort(-numpy.array(scores))]
        tp, fp = numpy.cumsum(match == 1), numpy.cumsum(match == 0)
        prec.append(tp / (tp + fp))
        rec.append(tp / n_pos if n_pos else None)
    return prec, rec


@pytest.mark.parametrize('seed', range(4))
def test_random_against_reference(seed):
    rng = numpy.random.default_rng(seed)
    data = tuple([] for _ in range(5))
    for _ in range(8):
        height, width = rng.integers(5, 20, 2)
        n_gt, n_pred = rng.integers(0, 5), rng.integers(0, 8)
        gt_mask = rng.uniform(size=(n_gt, height, width)) < 0.3
        gt_mask[:, 0, 0] = True
        pred_mask = rng.uniform(size=(n_pred, height, width)) < 0.3
        if n_gt:
            copy = rng.uniform(size=n_pred) < 0.6
            pred_mask[copy] = gt_mask[rng.integers(0, n_gt, copy.sum())] ^ \
                (rng.uniform(size=(copy.sum(), height, width)) < 0.1)
        pred_mask[:, 0, 0] = True
        for column, value in zip(data, (pred_mask, rng.integers(0, 3, n_pred),
                                        rng.uniform(size=n_pred), gt_mask,
                                        rng.integers(0, 3, n_gt))):
            column.append(value)
    for iou_thresh in (0.3, 0.5):
        prec, rec = calc_instance_segmentation_voc_prec_rec(*data, iou_thresh)
        expected_prec, expected_rec = _reference_prec_rec(*data, iou_thresh)
        for got, expected in zip(prec + rec, expected_prec + expected_rec):
            if expected is None:
                assert got is None
            else:
                numpy.testing.assert_allclose(got, expected, rtol=1e-12)


def test_bad_input():
    mask = numpy.ones((1, 2, 2), bool)
    with pytest.raises(ValueError, match=r'calc_instance_segmentation_voc_prec_rec: '
                                         r'pred_masks\[0\] and gt_masks\[0\] must have the '
                                         r'same \(H, W\)'):
        calc_instance_segmentation_voc_prec_rec([mask], [[0]], [[1.]],
                                                [numpy.ones((1, 2, 3), bool)], [[0]])
    with pytest.raises(ValueError, match=r'gt_labels\[0\] must have one entry per object of '
                                         r'gt_masks\[0\] \(1\), but has 2'):
        eval_instance_segmentation_voc([mask], [[0]], [[1.]], [mask], [[0, 1]])

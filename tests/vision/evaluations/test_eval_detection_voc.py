import numpy
import pytest

from vision.evaluations import (
    calc_detection_voc_ap,
    calc_detection_voc_prec_rec,
    eval_detection_voc,
)
from vision.utils.testing import parameterize, product_dict


def _arrays(values):
    return None if values is None else (numpy.array(value) for value in values)


# ChainerCV's own cases.

@pytest.mark.parametrize('case', product_dict(
    [{'pred_bboxes': [[[0, 0, 1, 1], [0, 0, 2, 2], [0.3, 0.3, 0.5, 0.5]]],
      'pred_labels': [[0, 0, 0]], 'pred_scores': [[0.8, 0.9, 1]],
      'gt_bboxes': [[[0, 0, 1, 0.9]]], 'gt_labels': [[0]]}],
    [{'iou_thresh': 0.5, 'prec': [[0, 0, 1 / 3]], 'rec': [[0, 0, 1]]},
     {'iou_thresh': 0.97, 'prec': [[0, 0, 0]], 'rec': [[0, 0, 0]]}]) + [
    {'pred_bboxes': [[[0, 4, 1, 5], [0, 0, 1, 1]], [[0, 0, 2, 2], [2, 2, 3, 3], [5, 5, 7, 7]]],
     'pred_labels': [[0, 0], [0, 2, 2]], 'pred_scores': [[1, 0.9], [0.7, 0.6, 0.8]],
     'gt_bboxes': [[[0, 0, 1, 1], [1, 0, 4, 4]], [[2, 2, 3, 3]]], 'gt_labels': [[0, 0], [2]],
     'iou_thresh': 0.4, 'prec': [[0, 0.5, 1 / 3], None, [0, 0.5]],
     'rec': [[0, 0.5, 0.5], None, [0, 1]]},
    {'pred_bboxes': [[[0, 0, 1, 1], [0, 0, 2, 2], [0.3, 0.3, 0.5, 0.5]]],
     'pred_labels': [[0, 0, 0]], 'pred_scores': [[0.8, 0.9, 1]],
     'gt_bboxes': [[[0, 0, 1, 0.9], [1., 1., 2., 2.]]], 'gt_labels': [[0, 0]],
     'gt_difficults': [[False, True]], 'iou_thresh': 0.5, 'prec': [[0, 0, 1 / 3]],
     'rec': [[0, 0, 1]]},
])
def test_calc_detection_voc_prec_rec_chainercv(case):
    prec, rec = calc_detection_voc_prec_rec(
        _arrays(case['pred_bboxes']), _arrays(case['pred_labels']),
        _arrays(case['pred_scores']), _arrays(case['gt_bboxes']), _arrays(case['gt_labels']),
        _arrays(case.get('gt_difficults')), iou_thresh=case['iou_thresh'])
    for got, expected in ((prec, case['prec']), (rec, case['rec'])):
        assert len(got) == len(expected)
        for got_l, expected_l in zip(got, expected):
            if expected_l is None:
                assert got_l is None
            else:
                numpy.testing.assert_equal(got_l, expected_l)


@parameterize({'use_07_metric': False, 'ap': [0.25, numpy.nan, 0.5]},
              {'use_07_metric': True, 'ap': [0.5 / 11 * 6, numpy.nan, 0.5]})
class TestCalcDetectionVOCAP:
    prec = [numpy.array([0, 0.5, 1 / 3]), None, numpy.array([0, 0.5])]
    rec = [numpy.array([0, 0.5, 0.5]), None, numpy.array([0, 1])]

    def test_calc_detection_voc_ap(self):
        ap = calc_detection_voc_ap(self.prec, self.rec, use_07_metric=self.use_07_metric)
        numpy.testing.assert_almost_equal(ap, self.ap)


@pytest.mark.parametrize('use_07_metric, ap0, ap1', [(False, 0.25, 0.5),
                                                     (True, 0.5 / 11 * 6, 0.5)])
def test_eval_detection_voc_multiple_boxes(use_07_metric, ap0, ap1):
    result = eval_detection_voc(
        [numpy.array([[0., 4., 1., 5.], [0., 0., 1., 1.]]),
         numpy.array([[0., 0., 2., 2.], [2., 2., 3., 3.], [5., 5., 7., 7.]])],
        [numpy.array([0, 0]), numpy.array([0, 1, 1])],
        [numpy.array([1., 0.9]), numpy.array([0.7, 0.6, 0.8])],
        [numpy.array([[0., 0., 1., 1.], [1., 0., 4., 4.]]), numpy.array([[2., 2., 3., 3.]])],
        [numpy.array([0, 0]), numpy.array([1])], iou_thresh=0.4, use_07_metric=use_07_metric)
    numpy.testing.assert_almost_equal(result['ap'], [ap0, ap1])
    numpy.testing.assert_almost_equal(result['map'], (ap0 + ap1) / 2)
    assert result['protocol']['use_07_metric'] == use_07_metric


# Hand-computed cases.

def test_plus_one_pixel_convention():
    # Boxes (0, 0, 1, 1) and (0, 0, 1, 2) are 2 x 2 and 2 x 3 pixels: IoU 4 / 6, a match at
    # 0.6 (1 / 2 without the extra pixel).
    prec, rec = calc_detection_voc_prec_rec([[[0, 0, 1, 1]]], [[0]], [[1.]],
                                            [[[0, 0, 1, 2]]], [[0]], iou_thresh=0.6)
    numpy.testing.assert_equal(rec[0], [1])
    prec, rec = calc_detection_voc_prec_rec([[[0, 0, 1, 1]]], [[0]], [[1.]],
                                            [[[0, 0, 1, 2]]], [[0]], iou_thresh=0.67)
    numpy.testing.assert_equal(rec[0], [0])


def test_second_match_is_false_positive():
    # Both predictions find the same object: the better-scored one is the true positive.
    prec, rec = calc_detection_voc_prec_rec(
        [[[0, 0, 10, 10], [0, 0, 10, 9]]], [[0, 0]], [[0.5, 0.9]], [[[0, 0, 10, 10]]], [[0]])
    numpy.testing.assert_equal(prec[0], [1, 0.5])
    numpy.testing.assert_equal(rec[0], [1, 1])


def test_ties_in_scores():
    # Equal scores: within an image the later prediction is matched first (ChainerCV's
    # argsort()[::-1]), so the worse box takes the object; in the ranking, the earlier
    # prediction of an image comes first.
    prec, rec = calc_detection_voc_prec_rec(
        [[[0, 0, 10, 10], [0, 0, 10, 8]]], [[0, 0]], [[0.5, 0.5]], [[[0, 0, 10, 10]]], [[0]])
    numpy.testing.assert_equal(prec[0], [0, 0.5])
    numpy.testing.assert_equal(rec[0], [0, 1])
    # Across images, the later image comes first.
    prec, rec = calc_detection_voc_prec_rec(
        [[[50, 50, 60, 60]], [[0, 0, 10, 10]]], [[0], [0]], [[0.5], [0.5]],
        [numpy.zeros((0, 4)), [[0, 0, 10, 10]]], [numpy.zeros(0, int), [0]])
    numpy.testing.assert_equal(prec[0], [1, 0.5])


def test_difficult_objects_are_ignored():
    # A prediction on a difficult object is neither true nor false positive, and the
    # difficult object does not count: precision is NaN while only ignored ones are seen.
    prec, rec = calc_detection_voc_prec_rec(
        [[[0, 0, 10, 10], [20, 20, 30, 30]]], [[0, 0]], [[0.9, 0.8]],
        [[[0, 0, 10, 10], [20, 20, 30, 30]]], [[0, 0]], [[True, False]])
    numpy.testing.assert_equal(prec[0], [numpy.nan, 1])
    numpy.testing.assert_equal(rec[0], [0, 1])
    # Only difficult objects: no recall, AP NaN.
    prec, rec = calc_detection_voc_prec_rec(
        [[[0, 0, 10, 10]]], [[0]], [[0.9]], [[[0, 0, 10, 10]]], [[0]], [[True]])
    assert rec[0] is None
    assert numpy.isnan(calc_detection_voc_ap(prec, rec)[0])


def test_empty_predictions_and_ground_truth():
    empty_bbox, empty = numpy.zeros((0, 4), numpy.float32), numpy.zeros(0, numpy.int32)
    # Ground truth but no prediction: empty curves, AP 0.
    prec, rec = calc_detection_voc_prec_rec([empty_bbox], [empty], [empty],
                                            [[[0, 0, 1, 1]]], [[1]])
    assert prec[0] is None and rec[0] is None
    assert prec[1].shape == (0,) and rec[1].shape == (0,)
    result = eval_detection_voc([empty_bbox], [empty], [empty], [[[0, 0, 1, 1]]], [[1]])
    numpy.testing.assert_equal(result['ap'], [numpy.nan, 0])
    # Predictions but no ground truth: precision 0, recall None, AP NaN.
    prec, rec = calc_detection_voc_prec_rec([[[0, 0, 1, 1]]], [[0]], [[1.]], [empty_bbox],
                                            [empty])
    numpy.testing.assert_equal(prec[0], [0])
    assert rec[0] is None
    # Nothing at all.
    assert calc_detection_voc_prec_rec([empty_bbox], [empty], [empty], [empty_bbox],
                                       [empty]) == ([], [])
    result = eval_detection_voc([], [], [], [], [])
    assert result['ap'].shape == (0,) and numpy.isnan(result['map'])


def test_calc_detection_voc_ap_hand_computed():
    # Precision 1, 0.5, 2/3 at recall 1/2, 1/2, 1: area 1/2 * 1 + 1/2 * 2/3.
    ap = calc_detection_voc_ap([numpy.array([1, 0.5, 2 / 3])], [numpy.array([0.5, 0.5, 1])])
    numpy.testing.assert_allclose(ap, [0.5 + 1 / 3])
    # 11-point: recall >= 0, ..., 0.5 reach precision 1; 0.6, ..., 1 reach 2/3.
    ap = calc_detection_voc_ap([numpy.array([1, 0.5, 2 / 3])], [numpy.array([0.5, 0.5, 1])],
                               use_07_metric=True)
    numpy.testing.assert_allclose(ap, [(6 + 5 * 2 / 3) / 11])


# Against a direct implementation of the VOC loop.

def _reference_prec_rec(pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels,
                        gt_difficults, iou_thresh):
    """PASCAL VOC's evaluation, one class, image and prediction at a time, ties in scores
    broken as ChainerCV's ``argsort()[::-1]`` on a stable sort: within an image the later
    prediction is matched first, and in the ranking of the dataset the later entry comes
    first."""
    n_class = max(max(numpy.max(lb, initial=-1) for lb in pred_labels),
                  max(numpy.max(lb, initial=-1) for lb in gt_labels)) + 1
    prec, rec = [], []
    for lb in range(n_class):
        scores, matches, n_pos = [], [], 0
        for bbox, label, score, gt_bbox, gt_label, difficult in zip(
                pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_difficults):
            gts = [(g, d) for g, gl, d in zip(gt_bbox, gt_label, difficult) if gl == lb]
            n_pos += sum(not d for _, d in gts)
            taken = [False] * len(gts)
            for i in numpy.argsort(score, kind='stable')[::-1]:
                if label[i] != lb:
                    continue
                scores.append(score[i])
                ious = []
                for g, _ in gts:
                    height = min(bbox[i][2], g[2]) - max(bbox[i][0], g[0]) + 1
                    width = min(bbox[i][3], g[3]) - max(bbox[i][1], g[1]) + 1
                    inter = max(height, 0) * max(width, 0)
                    ious.append(inter / ((bbox[i][2] - bbox[i][0] + 1) *
                                         (bbox[i][3] - bbox[i][1] + 1) +
                                         (g[2] - g[0] + 1) * (g[3] - g[1] + 1) - inter))
                j = int(numpy.argmax(ious)) if ious else -1
                if j < 0 or ious[j] < iou_thresh:
                    matches.append(0)
                elif gts[j][1]:
                    matches.append(-1)
                else:
                    matches.append(0 if taken[j] else 1)
                    taken[j] = True
        if not scores and not n_pos and not any(lb in gl for gl in gt_labels):
            prec.append(None)
            rec.append(None)
            continue
        match = numpy.array(matches)[numpy.argsort(numpy.array(scores), kind='stable')[::-1]]
        tp, fp = numpy.cumsum(match == 1), numpy.cumsum(match == 0)
        with numpy.errstate(invalid='ignore'):
            prec.append(tp / (tp + fp))
        rec.append(tp / n_pos if n_pos else None)
    return prec, rec


def _with_pairs_at_the_thresholds(rng, data):
    """``data`` with, in each image, one more object and three predictions of its class whose
    IoUs with it (VOC's +1 convention) are exactly 0.3, 0.5 and 0.7: integer boxes of the same
    corner and width, heights 3k, 5k, 7k against 10k, so the IoU is a correctly rounded
    ``3kw / 10kw``, the float of the threshold itself."""
    data = [list(column) for column in data]
    for i in range(len(data[0])):
        k, width = rng.integers(1, 6), rng.integers(1, 40)
        y, x = rng.integers(0, 200, 2)
        gt = numpy.array([[y, x, y + 10 * k - 1, x + width - 1]], numpy.float64)
        pred = numpy.repeat(gt, 3, axis=0)
        pred[:, 2] = y + numpy.array([3, 5, 7]) * k - 1
        label = rng.integers(0, 5)
        score = numpy.round(rng.uniform(size=3) * 5) / 5
        for column, value in zip((0, 1, 2, 3, 4), (pred, [label] * 3, score, gt, [label])):
            data[column][i] = numpy.concatenate(
                (data[column][i], numpy.asarray(value, data[column][i].dtype)))
    return data


@pytest.mark.parametrize('seed', range(9))
def test_random_against_reference(seed, make_detections):
    # Every third draw has continuous values; the others have coordinates on a grid of 1 or
    # 1/4 and scores in steps of 0.2 (tied scores). Each image has a prediction exactly at
    # each threshold.
    rng = numpy.random.default_rng(seed)
    data = _with_pairs_at_the_thresholds(rng, make_detections(
        rng, n_image=15, quantum=(None, 1., 0.25)[seed % 3], dtype=numpy.float64)[:5])
    difficults = [rng.uniform(size=len(label)) < 0.2 for label in data[4]]
    for iou_thresh in (0.3, 0.5, 0.7):
        prec, rec = calc_detection_voc_prec_rec(*data, difficults, iou_thresh=iou_thresh)
        expected_prec, expected_rec = _reference_prec_rec(*data, difficults, iou_thresh)
        assert len(prec) == len(expected_prec)
        for got, expected in zip(prec + rec, expected_prec + expected_rec):
            if expected is None:
                assert got is None
            else:
                numpy.testing.assert_allclose(got, expected, rtol=1e-12)


def test_whole_floating_point_labels_count_as_integers(make_detections):
    # ChainerCV takes labels such as numpy.ones(R) (its evaluator tests pass them)
    data = make_detections(numpy.random.default_rng(0), n_image=5, dtype=numpy.float64)
    as_float = [[label.astype(numpy.float64) for label in data[i]] if i in (1, 4) else data[i]
                for i in range(5)]
    expected = eval_detection_voc(*data[:5])
    result = eval_detection_voc(*as_float)
    numpy.testing.assert_array_equal(result['ap'], expected['ap'])


# Bad input.

@pytest.mark.parametrize('change, error, match', [
    ({'pred_labels': [[0.5]]}, TypeError,
     r'calc_detection_voc_prec_rec: pred_labels\[0\] must be an integer array, but got dtype '
     r'float64 holding values that are not whole numbers'),
    ({'gt_labels': [[numpy.nan]]}, TypeError, r'gt_labels\[0\] must be an integer array'),
    ({'gt_labels': [[0], [0]]}, ValueError,
     r'calc_detection_voc_prec_rec: every input must have one entry per image, but '
     r'pred_bboxes, pred_labels, pred_scores, gt_bboxes ended after 1 images while '
     r'gt_labels went on'),
    ({'pred_scores': [[1., 2.]]}, ValueError,
     r'calc_detection_voc_prec_rec: pred_scores\[0\] must have one entry per object of '
     r'pred_bboxes\[0\] \(1\), but has 2'),
    ({'gt_difficults': [[True, False]]}, ValueError,
     r'gt_difficults\[0\] must have one entry per object of gt_bboxes\[0\] \(1\), but has 2'),
    ({'gt_bboxes': [[[0, 0, 1]]]}, ValueError,
     r'gt_bboxes\[0\] must have shape \(R, 4\), but got shape \(1, 3\)'),
    ({'iou_thresh': 'high'}, TypeError,
     r'calc_detection_voc_prec_rec: iou_thresh must be a real number, but got str'),
])
def test_bad_input(change, error, match):
    args = {'pred_bboxes': [[[0, 0, 1, 1]]], 'pred_labels': [[0]], 'pred_scores': [[1.]],
            'gt_bboxes': [[[0, 0, 1, 1]]], 'gt_labels': [[0]]}
    args.update(change)
    with pytest.raises(error, match=match):
        calc_detection_voc_prec_rec(**args)


def test_calc_detection_voc_ap_bad_input():
    with pytest.raises(ValueError, match=r'calc_detection_voc_ap: prec and rec must have one '
                                         r'entry per class, but have 1 and 2'):
        calc_detection_voc_ap([None], [None, None])
    with pytest.raises(ValueError, match=r'prec\[0\] and rec\[0\] must be 1-dimensional '
                                         r'arrays of one shape'):
        calc_detection_voc_ap([numpy.zeros(2)], [numpy.zeros(3)])

"""The PASCAL VOC matching shared by the box and mask evaluations (``vision.evaluations._voc``):
IoU exactly at the threshold, ties of IoU and score, labels, difficult objects, the types."""

from __future__ import annotations

import warnings

import numpy
import pytest

from vision.evaluations import calc_detection_voc_prec_rec
from vision.evaluations._voc import VOCAccumulator, image_order, match_image


def _match(iou, pred_label, gt_label, gt_difficult=None, iou_thresh=0.5):
    iou = numpy.asarray(iou, numpy.float64).reshape(len(pred_label), len(gt_label))
    gt_difficult = (numpy.zeros(len(gt_label), bool) if gt_difficult is None
                    else numpy.asarray(gt_difficult))
    return match_image(iou, numpy.asarray(pred_label), numpy.asarray(gt_label), gt_difficult,
                       iou_thresh)


def test_iou_exactly_the_threshold_matches():
    # 2 x 2 and 2 x 4 pixels (VOC's + 1): IoU 4 / 8, exactly 0.5.
    prec, rec = calc_detection_voc_prec_rec([[[0, 0, 1, 1]]], [[0]], [[1.]],
                                            [[[0, 0, 1, 3]]], [[0]], iou_thresh=0.5)
    numpy.testing.assert_equal((prec[0], rec[0]), ([1], [1]))
    match = _match([[0.5, 0.25]], [0], [0, 0], iou_thresh=0.5)
    assert match.dtype == numpy.int8
    numpy.testing.assert_array_equal(match, [1])
    numpy.testing.assert_array_equal(_match([[0.5]], [0], [0], iou_thresh=0.5 + 1e-12), [0])


def test_only_objects_of_the_same_label_are_found():
    # The best overlap is an object of another label: the prediction takes the best object
    # of its own label, or nothing.
    numpy.testing.assert_array_equal(_match([[0.9, 0.6]], [1], [0, 1]), [1])
    numpy.testing.assert_array_equal(_match([[0.9, 0.4]], [1], [0, 1]), [0])
    numpy.testing.assert_array_equal(_match([[0.9, 0.9]], [2], [0, 1]), [0])
    # Two labels among the predictions, each finds its own object.
    numpy.testing.assert_array_equal(_match([[0.7, 0.8], [0.8, 0.7]], [0, 1], [0, 1]), [1, 1])
    # Even a threshold of -inf (every overlap is enough) finds no object of another label.
    numpy.testing.assert_array_equal(
        _match([[0, 0], [0, 0]], [2, 0], [0, 1], iou_thresh=-numpy.inf), [0, 1])
    prec, rec = calc_detection_voc_prec_rec([[[0, 0, 1, 1], [5, 5, 6, 6]]], [[1, 0]],
                                            [[1., 0.5]], [[[0, 0, 1, 1]]], [[0]],
                                            iou_thresh=-numpy.inf)
    numpy.testing.assert_array_equal((prec[0], prec[1]), ([1], [0]))


def test_ties_of_iou_go_to_the_first_object():
    # Two objects overlapped equally: the first is found (ChainerCV's argmax), so the
    # prediction is ignored if it is difficult, even though the second is not.
    numpy.testing.assert_array_equal(_match([[0.6, 0.6]], [0], [0, 0], [True, False]), [-1])
    numpy.testing.assert_array_equal(_match([[0.6, 0.6]], [0], [0, 0], [False, True]), [1])
    # Two predictions, one object each after the other; the first claim wins per object.
    numpy.testing.assert_array_equal(
        _match([[0.6, 0.6], [0.7, 0.2], [0.6, 0.6], [0.1, 0.9]], [0] * 4, [0, 0]), [1, 0, 0, 1])


def test_a_prediction_on_a_difficult_object_claims_nothing():
    # The first prediction is ignored, the second still takes the (difficult) object: ignored
    # too; a third on the other object is a true positive.
    match = _match([[0.9, 0], [0.8, 0], [0, 0.7]], [0, 0, 0], [0, 0], [True, False])
    numpy.testing.assert_array_equal(match, [-1, -1, 1])


def test_no_prediction_or_no_object():
    assert _match(numpy.zeros((0, 2)), numpy.zeros(0, int), [0, 1]).shape == (0,)
    match = _match(numpy.zeros((2, 0)), [0, 1], numpy.zeros(0, int))
    assert match.dtype == numpy.int8
    numpy.testing.assert_array_equal(match, [0, 0])


def test_image_order_is_descending_score_later_first():
    numpy.testing.assert_array_equal(image_order(numpy.array([0.5, 0.9, 0.5, 0.1, 0.9])),
                                     [4, 1, 2, 0, 3])


def test_dataset_ranking_breaks_ties_by_later_image_then_earlier_prediction():
    accumulator = VOCAccumulator()
    # image 0: predictions (by matching order) 1 then 0, both 0.5, a TP and a FP;
    # image 1: one prediction of 0.5, a FP; one of 0.7, a TP.
    accumulator.add(0, numpy.array([1, 0]), numpy.array([0, 0]), numpy.array([0.5, 0.5]),
                    numpy.array([1, 0], numpy.int8), numpy.array([0, 0]),
                    numpy.array([False, False]))
    accumulator.add(1, numpy.array([1, 0]), numpy.array([0, 0]), numpy.array([0.7, 0.5]),
                    numpy.array([1, 0], numpy.int8), numpy.array([0]), numpy.array([False]))
    prec, rec = accumulator.prec_rec()
    # Ranked: image 1's 0.7 (TP), image 1's 0.5 (FP), then image 0's prediction 0 (FP),
    # then its prediction 1 (TP).
    numpy.testing.assert_allclose(prec[0], [1, 1 / 2, 1 / 3, 2 / 4])
    numpy.testing.assert_allclose(rec[0], [1 / 3, 1 / 3, 1 / 3, 2 / 3])


def test_classes_by_what_they_have():
    accumulator = VOCAccumulator()
    # class 0: predictions only; class 1: nothing; class 2: a difficult object only;
    # class 3: an object only; class 4: a prediction on its object.
    accumulator.add(0, numpy.array([0, 1, 2]), numpy.array([0, 0, 4]),
                    numpy.array([0.9, 0.8, 0.7]), numpy.array([0, 0, 1], numpy.int8),
                    numpy.array([2, 3, 4]), numpy.array([True, False, False]))
    prec, rec = accumulator.prec_rec()
    assert len(prec) == len(rec) == 5
    numpy.testing.assert_array_equal(prec[0], [0, 0])
    assert rec[0] is None and prec[1] is None and rec[1] is None
    assert prec[2].shape == (0,) and rec[2] is None
    assert prec[3].shape == (0,) and rec[3].shape == (0,)
    numpy.testing.assert_array_equal((prec[4], rec[4]), ([1], [1]))
    assert prec[4].dtype == rec[4].dtype == numpy.float64


def test_ignored_first_predictions_give_nan_precision_without_warning():
    accumulator = VOCAccumulator()
    accumulator.add(0, numpy.array([0, 1]), numpy.array([0, 0]), numpy.array([0.9, 0.8]),
                    numpy.array([-1, 1], numpy.int8), numpy.array([0, 0]),
                    numpy.array([True, False]))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        prec, rec = accumulator.prec_rec()
    numpy.testing.assert_array_equal(prec[0], [numpy.nan, 1])
    numpy.testing.assert_array_equal(rec[0], [0, 1])


def test_nothing_added_or_nothing_in_the_images():
    assert VOCAccumulator().prec_rec() == ([], [])
    accumulator = VOCAccumulator()
    empty = numpy.zeros(0, numpy.int64)
    accumulator.add(0, empty, empty, numpy.zeros(0), numpy.zeros(0, numpy.int8), empty,
                    numpy.zeros(0, bool))
    assert accumulator.prec_rec() == ([], [])


@pytest.mark.parametrize('n_image', [1, 3])
def test_whole_float_labels_and_scores_of_any_dtype(n_image):
    # The accumulator keeps what each image gives; labels of float dtype holding whole
    # numbers and float32 scores are ranked as their values.
    accumulator = VOCAccumulator()
    for i in range(n_image):
        accumulator.add(i, numpy.array([0, 1]), numpy.array([1., 0.]),
                        numpy.array([0.75, 0.25], numpy.float32),
                        numpy.array([1, 0], numpy.int8), numpy.array([1., 0.]),
                        numpy.array([False, False]))
    prec, rec = accumulator.prec_rec()
    numpy.testing.assert_array_equal(prec[1], numpy.ones(n_image))
    numpy.testing.assert_array_equal(prec[0], numpy.zeros(n_image))
    numpy.testing.assert_array_equal(rec[1], numpy.arange(1, n_image + 1) / n_image)

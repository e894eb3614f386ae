import warnings

import numpy
import pytest

from vision.evaluations import (
    calc_semantic_segmentation_confusion,
    calc_semantic_segmentation_iou,
    eval_semantic_segmentation,
)

# ChainerCV's own cases.

@pytest.mark.parametrize('pred_labels, gt_labels, iou, pixel_accuracy, class_accuracy', [
    (lambda: iter(numpy.repeat([[[1, 1, 0], [0, 0, 1]]], 2, axis=0)),
     lambda: iter(numpy.repeat([[[1, 0, 0], [0, -1, 1]]], 2, axis=0)),
     [4 / 6, 4 / 6], 4 / 5, [2 / 3, 2 / 2]),
    (lambda: numpy.array([[[0, 0, 0], [0, 0, 0]]]), lambda: numpy.array([[[1, 1, 1], [1, 1, 1]]]),
     [0, 0], 0 / 6, [numpy.nan, 0]),
])
def test_eval_semantic_segmentation_chainercv(pred_labels, gt_labels, iou, pixel_accuracy,
                                              class_accuracy):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        result = eval_semantic_segmentation(pred_labels(), gt_labels())
    numpy.testing.assert_equal(result['iou'], iou)
    numpy.testing.assert_equal(result['pixel_accuracy'], pixel_accuracy)
    numpy.testing.assert_equal(result['class_accuracy'], class_accuracy)
    numpy.testing.assert_equal(result['miou'], numpy.nanmean(iou))
    numpy.testing.assert_equal(result['mean_class_accuracy'], numpy.nanmean(class_accuracy))
    assert result['protocol'] == {'metric': 'semantic_segmentation', 'ignore_label': -1,
                                  'n_class': 2}


def test_calc_semantic_segmentation_confusion_chainercv():
    rng = numpy.random.default_rng(0)
    pred_labels = rng.integers(0, 2, size=(10, 16, 16))
    gt_labels = rng.integers(-1, 2, size=(10, 16, 16))
    expected = numpy.array([[numpy.sum((gt_labels == i) & (pred_labels == j)) for j in range(2)]
                            for i in range(2)])
    confusion = calc_semantic_segmentation_confusion(pred_labels, gt_labels)
    assert confusion.dtype == numpy.int64
    numpy.testing.assert_equal(confusion, expected)


def test_calc_semantic_segmentation_confusion_shape():
    rng = numpy.random.default_rng(1)
    pred_labels = rng.integers(0, 30, size=(2, 3, 3))
    gt_labels = rng.integers(-1, 30, size=(2, 3, 3))
    size = numpy.max((pred_labels + 1, gt_labels + 1))
    assert calc_semantic_segmentation_confusion(pred_labels, gt_labels).shape == (size, size)


def test_calc_semantic_segmentation_iou_chainercv():
    c = numpy.random.default_rng(2).integers(0, 100, size=(2, 2))
    expected = [c[0, 0] / (c[0, 0] + c[0, 1] + c[1, 0]),
                c[1, 1] / (c[1, 1] + c[1, 0] + c[0, 1])]
    numpy.testing.assert_equal(calc_semantic_segmentation_iou(c), expected)


# More cases.

def test_streams_and_grows():
    # Label maps of different sizes, read lazily; the matrix grows as labels appear; a
    # predicted label at an ignored pixel counts for the size only.
    def pairs():
        yield numpy.array([[0, 1]]), numpy.array([[0, 1]])
        yield numpy.array([[2], [5]]), numpy.array([[2], [-1]])

    maps = list(pairs())
    confusion = calc_semantic_segmentation_confusion((p for p, _ in pairs()),
                                                     (g for _, g in pairs()))
    expected = numpy.zeros((6, 6), numpy.int64)
    expected[0, 0] = expected[1, 1] = expected[2, 2] = 1
    numpy.testing.assert_equal(confusion, expected)
    result = eval_semantic_segmentation([p for p, _ in maps], [g for _, g in maps])
    numpy.testing.assert_equal(result['iou'], [1, 1, 1] + [numpy.nan] * 3)
    assert result['miou'] == 1 and result['pixel_accuracy'] == 1


def test_against_brute_force():
    rng = numpy.random.default_rng(3)
    pred = [rng.integers(0, 5, (7, 9)) for _ in range(4)]
    gt = [rng.integers(-1, 5, (7, 9)) for _ in range(4)]
    result = eval_semantic_segmentation(pred, gt)
    p, g = numpy.concatenate([x.ravel() for x in pred]), numpy.concatenate([x.ravel() for x in gt])
    p, g = p[g >= 0], g[g >= 0]
    iou = [((p == c) & (g == c)).sum() / ((p == c) | (g == c)).sum() for c in range(5)]
    numpy.testing.assert_allclose(result['iou'], iou)
    assert result['pixel_accuracy'] == pytest.approx((p == g).mean())
    numpy.testing.assert_allclose(result['class_accuracy'],
                                  [(p[g == c] == c).mean() for c in range(5)])


def test_empty():
    result = eval_semantic_segmentation([], [])
    assert result['iou'].shape == (0,) and numpy.isnan(result['miou'])
    assert numpy.isnan(result['pixel_accuracy'])


@pytest.mark.parametrize('pred, gt, error, match', [
    ([numpy.zeros((2, 2), int)], [numpy.zeros((2, 3), int)], ValueError,
     r'calc_semantic_segmentation_confusion: pred_labels\[0\] and gt_labels\[0\] must have one '
     r'shape, but got \(2, 2\) and \(2, 3\)'),
    ([numpy.zeros((1, 2, 2), int)], [numpy.zeros((1, 2, 2), int)], ValueError,
     r'pred_labels\[0\] must have shape \(H, W\), but got shape \(1, 2, 2\)'),
    ([numpy.zeros((2, 2))], [numpy.zeros((2, 2), int)], TypeError,
     r'pred_labels\[0\] must be an integer array, but got dtype float64'),
    ([numpy.full((2, 2), -1)], [numpy.zeros((2, 2), int)], ValueError,
     r'pred_labels\[0\] must be at least 0 where gt_labels is not -1, but has -1'),
    ([numpy.zeros((2, 2), int)] * 2, [numpy.zeros((2, 2), int)], ValueError,
     r'every input must have one entry per image, but gt_labels ended after 1 images'),
])
def test_bad_input(pred, gt, error, match):
    with pytest.raises(error, match=match):
        calc_semantic_segmentation_confusion(pred, gt)


def test_iou_bad_input():
    with pytest.raises(ValueError, match=r'calc_semantic_segmentation_iou: confusion must have '
                                         r'shape \(n_class, n_class\), but got shape \(2, 3\)'):
        calc_semantic_segmentation_iou(numpy.zeros((2, 3)))

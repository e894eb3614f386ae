import subprocess
import sys

import numpy
import pytest

from vision.evaluations import eval_detection_coco

KEY = 'ap/iou=0.50:0.95/area=all/max_dets=100'
AREA_KEYS = [f'{kind}/iou=0.50:0.95/area={area}/max_dets=100'
             for kind in ('ap', 'ar') for area in ('small', 'medium', 'large')]
KEYS = ['ap/iou=0.50:0.95/area=all/max_dets=100', 'ap/iou=0.50/area=all/max_dets=100',
        'ap/iou=0.75/area=all/max_dets=100', 'ar/iou=0.50:0.95/area=all/max_dets=1',
        'ar/iou=0.50:0.95/area=all/max_dets=10', 'ar/iou=0.50:0.95/area=all/max_dets=100']


def chainercv_values(evaluator, key):
    """ChainerCV's summary of one key from pycocotools' arrays: per-class values, the mean."""
    kind, iou, area, max_dets = (part.split('=')[-1] for part in key.split('/'))
    params = evaluator.params
    a = params.areaRngLbl.index(area)
    m = params.maxDets.index(int(max_dets))
    values = evaluator.eval['precision' if kind == 'ap' else 'recall'].copy()
    if iou != '0.50:0.95':
        values = values[params.iouThrs == float(iou)]
    values = values[..., a, m]
    values[values == -1] = numpy.nan
    values = values.reshape(-1, values.shape[-1])
    valid = ~numpy.isnan(values).all(axis=0)
    per_class = numpy.full(values.shape[1], numpy.nan)
    per_class[valid] = numpy.nanmean(values[:, valid], axis=0)
    return per_class, (numpy.nanmean(per_class) if valid.any() else numpy.nan)


def assert_same_as_pycocotools(result, evaluator, with_areas=True):
    ours = result['coco_eval']
    numpy.testing.assert_allclose(ours.eval['precision'], evaluator.eval['precision'],
                                  rtol=0, atol=1e-6)
    numpy.testing.assert_allclose(ours.eval['recall'], evaluator.eval['recall'],
                                  rtol=0, atol=1e-6)
    labels = numpy.asarray(evaluator.params.catIds)
    numpy.testing.assert_equal(result['existent_labels'], labels)
    for key in KEYS + (AREA_KEYS if with_areas else []):
        per_class, mean = chainercv_values(evaluator, key)
        numpy.testing.assert_allclose(result[key][labels], per_class, rtol=0, atol=1e-6)
        assert numpy.isnan(numpy.delete(result[key], labels)).all()
        numpy.testing.assert_allclose(result['m' + key], mean, rtol=0, atol=1e-6)


# ChainerCV's own cases.

@pytest.fixture
def single_class():
    return (numpy.array([[[0, 0, 10, 10], [0, 0, 20, 20]]]), numpy.array([[0, 0]]),
            numpy.array([[0.8, 0.9]]), numpy.array([[[0, 0, 10, 9]]]), numpy.array([[0, 0]]))


def test_crowded(single_class):
    result = eval_detection_coco(*single_class, gt_crowdeds=[[True]])
    # When the only ground truth is crowded, nothing is evaluated: all results are NaN.
    for key in KEYS:
        assert numpy.isnan(result['m' + key])


def test_crowd_flags_as_zeros_and_ones_as_chainercv_takes_them(single_class):
    for flag in (False, True):
        as_bool = eval_detection_coco(*single_class, gt_crowdeds=[numpy.array([flag])])
        as_float = eval_detection_coco(*single_class, gt_crowdeds=[numpy.array([float(flag)])])
        numpy.testing.assert_array_equal(as_float['map/iou=0.50:0.95/area=all/max_dets=100'],
                                         as_bool['map/iou=0.50:0.95/area=all/max_dets=100'])
    with pytest.raises(TypeError, match=r'gt_crowdeds\[0\] must be a boolean array, but got '
                                        'dtype float64 holding values other than 0 and 1'):
        eval_detection_coco(*single_class, gt_crowdeds=[numpy.array([0.5])])


def test_area_not_supplied(single_class):
    result = eval_detection_coco(*single_class)
    for key in AREA_KEYS:
        assert key not in result and 'm' + key not in result


def test_areas_as_a_column_as_chainercv_takes_them(single_class):
    row = eval_detection_coco(*single_class, gt_areas=[numpy.array([2048.])])
    column = eval_detection_coco(*single_class, gt_areas=[numpy.array([[2048.]])])
    assert row.keys() == column.keys()
    for key in row:
        if isinstance(row[key], numpy.ndarray):
            numpy.testing.assert_array_equal(row[key], column[key])


def test_area_specified(single_class):
    result = eval_detection_coco(*single_class, gt_areas=[[2048]])
    assert not numpy.isnan(result['map/iou=0.50:0.95/area=medium/max_dets=100'])
    assert numpy.isnan(result['map/iou=0.50:0.95/area=small/max_dets=100'])
    assert numpy.isnan(result['map/iou=0.50:0.95/area=large/max_dets=100'])


def test_some_class_non_existent():
    result = eval_detection_coco(
        numpy.array([[[0, 0, 10, 10], [0, 0, 20, 20]]]), numpy.array([[1, 2]]),
        numpy.array([[0.8, 0.9]]), numpy.array([[[0, 0, 10, 9]]]), numpy.array([[1, 2]]))
    assert result[KEY].shape == (3,)
    assert numpy.isnan(result[KEY][0])
    assert numpy.nanmean(result[KEY][1:]) == result['m' + KEY]


# Hand-computed cases.

def test_single_match_hand_computed():
    # The IoU of the prediction with the object is 0.9: a match at the 9 thresholds 0.5, ...,
    # 0.9 of 10, so AP@[0.5:0.95] and AR are 0.9 at every maxDets, AP@0.5 and AP@0.75 1
    # (COCOeval's precision 1 / (1 + eps)).
    result = eval_detection_coco([[[0, 0, 10, 10]]], [[0]], [[0.5]], [[[0, 0, 10, 9]]], [[0]])
    for key in KEYS:
        expected = 1 if key.startswith('ap/iou=0.50/') or key.startswith('ap/iou=0.75') else 0.9
        numpy.testing.assert_allclose(result[key], [expected])
        numpy.testing.assert_allclose(result['m' + key], expected)


def test_ties_keep_input_order():
    # Two predictions of equal score on one object; the first in input order is matched
    # first. A box of IoU 0.62 first takes the object at thresholds up to 0.6, where the
    # perfect box ranked after it is a false positive (precision 1, then 0.5: envelope 1);
    # above, the first is a false positive and the precision is 0.5 throughout.
    gt = [[[0, 0, 10, 10]]]
    result = eval_detection_coco([[[0, 0, 10, 6.2], [0, 0, 10, 10]]], [[0, 0]], [[0.5, 0.5]],
                                 gt, [[0]])
    precision = result['coco_eval'].eval['precision'][:, :, 0, 0, 2]
    numpy.testing.assert_allclose(precision[:3], 1.)
    numpy.testing.assert_allclose(precision[3:], 0.5)
    result = eval_detection_coco([[[0, 0, 10, 10], [0, 0, 10, 6.2]]], [[0, 0]], [[0.5, 0.5]],
                                 gt, [[0]])
    numpy.testing.assert_allclose(result['coco_eval'].eval['precision'][:, :, 0, 0, 2], 1.)


def test_crowd_uses_detection_area():
    # A prediction inside a crowd region has a crowd IoU of 1 (its area over its own area):
    # it is matched to the crowd and ignored, not a false positive. The other object is found.
    crowd = [0, 0, 100, 100]
    result = eval_detection_coco(
        [[[10, 10, 20, 20], [200, 200, 210, 210]]], [[0, 0]], [[0.9, 0.8]],
        [[crowd, [200, 200, 210, 210]]], [[0, 0]], gt_crowdeds=[[True, False]])
    assert result['map/iou=0.50:0.95/area=all/max_dets=100'] == pytest.approx(1.)
    # Not crowded, the same object makes the first prediction a false positive.
    result = eval_detection_coco(
        [[[10, 10, 20, 20], [200, 200, 210, 210]]], [[0, 0]], [[0.9, 0.8]],
        [[crowd, [200, 200, 210, 210]]], [[0, 0]])
    assert result['mar/iou=0.50:0.95/area=all/max_dets=100'] == pytest.approx(0.5)
    assert result['map/iou=0.50/area=all/max_dets=100'] == pytest.approx(0.5 * 51 / 101)


def test_max_dets_per_image_and_class():
    # With maxDets=1, only the best prediction of each image and class counts.
    result = eval_detection_coco(
        [[[50, 50, 60, 60], [0, 0, 10, 10]]], [[0, 0]], [[0.9, 0.1]],
        [[[0, 0, 10, 10]]], [[0]])
    assert result['ar/iou=0.50:0.95/area=all/max_dets=1'][0] == 0
    assert result['ar/iou=0.50:0.95/area=all/max_dets=10'][0] == 1


def test_empty_predictions_and_ground_truth():
    empty_bbox = numpy.zeros((0, 4), numpy.float32)
    empty = numpy.zeros(0, numpy.int32)
    # No prediction: AP and AR 0 for the class with an object.
    result = eval_detection_coco([empty_bbox], [empty], [empty.astype(numpy.float32)],
                                 [[[0, 0, 10, 10]]], [[1]])
    numpy.testing.assert_equal(result[KEY], [numpy.nan, 0])
    # No ground truth: nothing is defined.
    result = eval_detection_coco([[[0, 0, 10, 10]]], [[1]], [[0.5]], [empty_bbox], [empty])
    numpy.testing.assert_equal(result[KEY], [numpy.nan, numpy.nan])
    assert numpy.isnan(result['m' + KEY])
    # Nothing at all, or no image.
    for args in ([[empty_bbox], [empty], [empty], [empty_bbox], [empty]], [[]] * 5):
        result = eval_detection_coco(*args)
        assert result[KEY].shape == (0,) and numpy.isnan(result['m' + KEY])
        assert result['existent_labels'].shape == (0,)


# Against pycocotools.

@pytest.mark.parametrize('seed', range(12))
def test_random_against_pycocotools(seed, pycocotools_eval, make_detections):
    rng = numpy.random.default_rng(seed)
    quantum = (None, 1., 0.25)[seed % 3]
    data = make_detections(rng, quantum=quantum,
                           dtype=(numpy.float32, numpy.float64)[seed % 2])
    with_areas = seed % 4 != 3
    gt_areas = data[5] if with_areas else None
    gt_crowdeds = data[6] if seed % 5 else None
    result = eval_detection_coco(*data[:5], gt_areas, gt_crowdeds)
    evaluator = pycocotools_eval('bbox', *data[:5], gt_areas, gt_crowdeds)
    assert_same_as_pycocotools(result, evaluator, with_areas)


def test_many_predictions_against_pycocotools(pycocotools_eval):
    # More than 100 predictions of one class in an image: COCOeval keeps the best 100.
    rng = numpy.random.default_rng(0)
    gt_bbox = rng.uniform(0, 200, (30, 2)).repeat(2, axis=1) + [0, 0, 20, 20]
    pred_bbox = gt_bbox[rng.integers(0, 30, 250)] + rng.normal(0, 3, (250, 4))
    pred_score = numpy.round(rng.uniform(size=250), 1)
    data = ([pred_bbox, pred_bbox[:50]], [numpy.zeros(250, int), numpy.ones(50, int)],
            [pred_score, pred_score[:50]], [gt_bbox, gt_bbox], [numpy.zeros(30, int),
                                                                numpy.ones(30, int)])
    assert_same_as_pycocotools(eval_detection_coco(*data), pycocotools_eval('bbox', *data),
                               with_areas=False)


def test_classes_on_one_side_against_pycocotools(pycocotools_eval):
    # Class 1 only predicted, class 3 only in the ground truth, class 2 absent.
    data = ([[[0, 0, 10, 10], [5, 5, 30, 30]]], [[0, 1]], [[0.3, 0.6]],
            [[[0, 0, 10, 11], [5, 5, 30, 30]]], [[0, 3]])
    result = eval_detection_coco(*data)
    assert_same_as_pycocotools(result, pycocotools_eval('bbox', *data), with_areas=False)
    numpy.testing.assert_equal(result['existent_labels'], [0, 1, 3])
    assert numpy.isnan(result[KEY][[1, 2]]).all()
    assert result[KEY][3] == 0


def test_summarize_matches_pycocotools(pycocotools_eval, make_detections, capsys):
    data = make_detections(numpy.random.default_rng(5))
    result = eval_detection_coco(*data)
    evaluator = pycocotools_eval('bbox', *data)
    evaluator.summarize()
    expected = capsys.readouterr().out
    result['coco_eval'].summarize()
    assert capsys.readouterr().out.strip() == expected.strip()
    numpy.testing.assert_allclose(result['coco_eval'].stats, evaluator.stats, atol=1e-12)


# The result.

def test_result_layout():
    result = eval_detection_coco([[[0, 0, 10, 10]]], [[2]], [[0.5]], [[[0, 0, 10, 9]]], [[2]],
                                 gt_areas=[[90.]])
    for key in KEYS + AREA_KEYS:
        assert result[key].dtype == numpy.float64 and result[key].shape == (3,)
        assert isinstance(result['m' + key], float)
    evaluation = result['coco_eval']
    assert evaluation.eval['precision'].shape == (10, 101, 1, 4, 3)
    assert evaluation.eval['recall'].shape == (10, 1, 4, 3)
    assert evaluation.params.catIds == [2] and evaluation.params.maxDets == [1, 10, 100]
    protocol = result['protocol']
    assert protocol['iou_type'] == 'bbox' and protocol['max_dets'] == (1, 10, 100)
    numpy.testing.assert_allclose(protocol['iou_threshs'], numpy.arange(10) * 0.05 + 0.5)
    assert protocol['area_ranges']['medium'] == (32 ** 2, 96 ** 2)
    assert protocol['areas'] == 'gt_areas'


def test_generators_and_lists():
    def images():
        yield numpy.array([[0, 0, 10, 10]], numpy.float32)

    result = eval_detection_coco(images(), iter([[0]]), ([0.5] for _ in range(1)),
                                 [[[0, 0, 10, 10]]], [[0]])
    assert result['m' + KEY] == pytest.approx(1)


def test_does_not_import_pycocotools():
    code = ('import sys, numpy; from vision.evaluations import eval_detection_coco, '
            'eval_instance_segmentation_coco; '
            'eval_detection_coco([[[0, 0, 1, 1]]], [[0]], [[1.]], [[[0, 0, 1, 1]]], [[0]]); '
            'm = numpy.ones((1, 2, 2), bool); '
            'eval_instance_segmentation_coco([m], [[0]], [[1.]], [m], [[0]]); '
            'assert "pycocotools" not in sys.modules')
    subprocess.run([sys.executable, '-c', code], check=True)


# Bad input.

@pytest.mark.parametrize('change, error, match', [
    ({'pred_bboxes': [[[0, 0, 1, 1]], [[0, 0, 1, 1]]]}, ValueError,
     r'eval_detection_coco: every input must have one entry per image, but pred_labels, '),
    ({'pred_bboxes': [[0, 0, 1, 1]]}, ValueError,
     r'eval_detection_coco: pred_bboxes\[0\] must have shape \(R, 4\), but got shape \(4,\)'),
    ({'gt_labels': [[0.5]]}, TypeError,
     r'eval_detection_coco: gt_labels\[0\] must be an integer array, but got dtype float64'),
    ({'pred_labels': [[-1]]}, ValueError,
     r'eval_detection_coco: pred_labels\[0\] must hold labels of at least 0, but got -1'),
    ({'pred_scores': [[numpy.nan]]}, ValueError,
     r'eval_detection_coco: pred_scores\[0\] must not contain NaN'),
    ({'gt_bboxes': [[['a', 'b', 'c', 'd']]]}, TypeError,
     r'eval_detection_coco: gt_bboxes\[0\] must be an integer or floating-point array'),
])
def test_bad_input(change, error, match):
    args = {'pred_bboxes': [[[0, 0, 1, 1]]], 'pred_labels': [[0]], 'pred_scores': [[1.]],
            'gt_bboxes': [[[0, 0, 1, 1]]], 'gt_labels': [[0]]}
    args.update(change)
    with pytest.raises(error, match=match):
        eval_detection_coco(**args)


@pytest.mark.parametrize('side, ranges', [(32, ('small', 'medium')), (96, ('medium', 'large'))])
def test_area_range_bounds_are_included(side, ranges):
    # pycocotools ignores an object when area < lo or area > hi: an object (and a detection)
    # of area exactly 32² or 96² counts in both ranges it bounds. The unmatched detection,
    # scored higher, halves the precision wherever it counts.
    pred_bboxes = [[[0, 0, side, side], [200, 200, 200 + side, 200 + side]]]
    result = eval_detection_coco(pred_bboxes, [[0, 0]], [[0.5, 0.9]],
                                 [[[0, 0, side, side]]], [[0]], gt_areas=[[side * side]])
    for name in ('small', 'medium', 'large'):
        ap = result[f'map/iou=0.50:0.95/area={name}/max_dets=100']
        if name in ranges:
            assert ap == pytest.approx(0.5), name
        else:
            assert numpy.isnan(ap), name


def test_iou_exactly_the_lowest_threshold_matches():
    # COCOeval skips an object only when the IoU is below the threshold: a box over half the
    # object (IoU 50 / 100, exactly 0.5) is a match at 0.5 and at no other threshold; a box
    # over 0.499 of it is a match nowhere.
    gt = [[[0, 0, 10, 10]]]
    result = eval_detection_coco([[[0, 0, 5, 10]]], [[0]], [[0.5]], gt, [[0]])
    numpy.testing.assert_array_equal(result['coco_eval'].eval['recall'][:, 0, 0, 2],
                                     [1] + [0] * 9)
    assert result['ap/iou=0.50/area=all/max_dets=100'][0] == pytest.approx(1)
    assert result['ap/iou=0.50:0.95/area=all/max_dets=100'][0] == pytest.approx(0.1)
    result = eval_detection_coco([[[0, 0, 4.99, 10]]], [[0]], [[0.5]], gt, [[0]])
    numpy.testing.assert_array_equal(result['coco_eval'].eval['recall'][:, 0, 0], 0)


def test_precision_is_cocoeval_arithmetic_to_the_bit():
    # COCOeval's precision is tp / (fp + tp + spacing(1)) in float64: found, missed, found
    # (two objects) gives 1 / (1 + eps) up to recall 0.5 and 2 / (3 + eps) above, at every
    # threshold (IoU 1); with maxDets 1 only the first detection counts. Compared exactly.
    eps = numpy.spacing(1)
    result = eval_detection_coco(
        [[[0, 0, 10, 10], [50, 50, 60, 60], [20, 20, 30, 30]]], [[0, 0, 0]], [[0.9, 0.8, 0.7]],
        [[[0, 0, 10, 10], [20, 20, 30, 30]]], [[0, 0]])
    evaluation = result['coco_eval'].eval
    first, second = numpy.float64(1) / (0 + 1 + eps), numpy.float64(2) / (1 + 2 + eps)
    assert first != 1 and first != numpy.float64(1) / (1 + numpy.spacing(2))
    numpy.testing.assert_array_equal(evaluation['precision'][:, :, 0, 0, 2],
                                     [[first] * 51 + [second] * 50] * 10)
    numpy.testing.assert_array_equal(evaluation['precision'][:, :, 0, 0, 0],
                                     [[first] * 51 + [0] * 50] * 10)
    numpy.testing.assert_array_equal(evaluation['recall'][:, 0, 0], [[0.5, 1, 1]] * 10)


def test_parameters_are_pycocotools(pycocotools_eval, make_detections):
    # The recorded parameters are COCOeval's for boxes, bit for bit: images numbered from 1.
    data = make_detections(numpy.random.default_rng(1), n_image=3)
    ours = eval_detection_coco(*data)['coco_eval'].params
    theirs = pycocotools_eval('bbox', *data).params
    assert ours.imgIds == theirs.imgIds == [1, 2, 3]
    assert ours.catIds == theirs.catIds
    numpy.testing.assert_array_equal(ours.iouThrs, theirs.iouThrs)
    numpy.testing.assert_array_equal(ours.recThrs, theirs.recThrs)
    assert ours.recThrs.shape == (101,)
    assert ours.areaRng == theirs.areaRng == [[0, 1e10], [0, 1024], [1024, 9216], [9216, 1e10]]
    assert ours.areaRngLbl == theirs.areaRngLbl
    assert ours.maxDets == theirs.maxDets and ours.iouType == theirs.iouType == 'bbox'

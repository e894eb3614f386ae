import subprocess
import sys

import numpy
import pytest

from vision.evaluations import eval_keypoint_detection_coco

KEY = 'ap/iou=0.50:0.95/area=all/max_dets=20'
# In the order of pycocotools' summarize() for keypoints.
KEYS = [f'{kind}/iou={iou}/area={area}/max_dets=20' for kind in ('ap', 'ar')
        for iou, area in (('0.50:0.95', 'all'), ('0.50', 'all'), ('0.75', 'all'),
                          ('0.50:0.95', 'medium'), ('0.50:0.95', 'large'))]
AREA_KEYS = [key for key in KEYS if 'area=all' not in key]
SIGMAS = numpy.array([.26, .25, .25, .35, .35, .79, .79, .72, .72, .62, .62, 1.07, 1.07,
                      .87, .87, .89, .89]) / 10


def person(y, x, size=40., dtype=numpy.float32):
    """17 points spread over a square of side ``size`` at ``(y, x)``, shape (17, 2)."""
    grid = numpy.stack([numpy.arange(17) % 4, numpy.arange(17) // 4], axis=1) / 4 * size
    return (grid + [y, x]).astype(dtype)


def random_keypoints(rng, n_image=20, n_class=3, max_gt=6, max_pred=30, quantum=None,
                     dtype=numpy.float32):
    """Objects and predictions, most predictions near an object.

    Some objects have few or no visible keypoints; a third of the areas are exactly 0, 32²
    or 96². With ``quantum``, coordinates are
    multiples of it and scores multiples of 0.2, so that scores and OKS tie. Returns
    ``pred_points, pred_labels, pred_scores, gt_points, gt_visibles, gt_bboxes, gt_labels,
    gt_areas, gt_crowdeds`` as lists.
    """
    columns: tuple[list, ...] = tuple([] for _ in range(9))
    for _ in range(n_image):
        n_gt, n_pred = rng.integers(0, max_gt + 1), rng.integers(0, max_pred + 1)
        spread = rng.uniform(5, 80, (n_gt, 1, 1))
        gt_point = rng.uniform(0, 400, (n_gt, 1, 2)) + rng.normal(size=(n_gt, 17, 2)) * spread
        visible = rng.uniform(size=(n_gt, 17)) < rng.uniform(-0.2, 1, (n_gt, 1))
        gt_label = rng.integers(0, n_class, n_gt)
        source = rng.integers(0, max(n_gt, 1), n_pred)
        near = (rng.uniform(size=n_pred) < 0.8) & (n_gt > 0)
        pred_point = rng.uniform(0, 400, (n_pred, 1, 2)) + rng.normal(0, 30, (n_pred, 17, 2))
        if n_gt:
            noise = rng.uniform(0, 0.4, (n_pred, 1, 1)) * spread[source]
            pred_point[near] = (gt_point[source] + rng.normal(size=(n_pred, 17, 2)) * noise)[near]
        pred_label = numpy.where(near & (rng.uniform(size=n_pred) < 0.9),
                                 gt_label[source] if n_gt else 0,
                                 rng.integers(0, n_class, n_pred))
        pred_score = rng.uniform(size=n_pred)
        if quantum:
            pred_point, gt_point = (numpy.round(p / quantum) * quantum
                                    for p in (pred_point, gt_point))
            pred_score = numpy.round(pred_score * 5) / 5
        low, high = gt_point.min(axis=1), gt_point.max(axis=1)
        bbox = numpy.concatenate([low, high], axis=1) + rng.normal(0, 3, (n_gt, 4))
        area = numpy.prod(high - low, axis=1) * rng.uniform(0.2, 1, n_gt)
        at_bound = rng.uniform(size=n_gt) < 1 / 3  # COCO's range bounds, in both ranges
        area[at_bound] = rng.choice([0., 32. ** 2, 96. ** 2], at_bound.sum())
        for column, value in zip(columns, (
                pred_point.astype(dtype), pred_label.astype(numpy.int32),
                pred_score.astype(numpy.float32), gt_point.astype(dtype), visible,
                bbox.astype(dtype), gt_label.astype(numpy.int32), area.astype(numpy.float32),
                rng.uniform(size=n_gt) < 0.1)):
            column.append(value)
    return columns


def assert_same_arrays(result, evaluator):
    ours = result['coco_eval']
    numpy.testing.assert_allclose(ours.eval['precision'], evaluator.eval['precision'],
                                  rtol=0, atol=1e-6)
    numpy.testing.assert_allclose(ours.eval['recall'], evaluator.eval['recall'],
                                  rtol=0, atol=1e-6)
    numpy.testing.assert_equal(result['existent_labels'], evaluator.params.catIds)


# ChainerCV's own cases: predictions on the objects' points, half the keypoints visible.

@pytest.fixture
def exact():
    rng = numpy.random.default_rng(0)
    points = [rng.uniform(0, (32, 48), (3, 17, 2)).astype(numpy.float32) for _ in range(2)]
    visibles = [rng.uniform(size=(3, 17)) < 0.5 for _ in range(2)]
    bboxes = [numpy.concatenate([p.min(axis=1), p.max(axis=1)], axis=1) for p in points]
    labels = [numpy.zeros(3, numpy.int32)] * 2
    scores = [rng.uniform(0.5, 1, 3).astype(numpy.float32) for _ in range(2)]
    return points, labels, scores, points, visibles, bboxes, labels


@pytest.mark.parametrize('with_bboxes', [True, False])
def test_exact_predictions(exact, with_bboxes):
    result = eval_keypoint_detection_coco(*exact[:5], exact[5] if with_bboxes else None,
                                          exact[6])
    for key in KEYS[:3] + KEYS[5:8]:
        assert result['m' + key] == 1
    for key in AREA_KEYS:
        assert key not in result and 'm' + key not in result


def test_area_supplied(exact):
    result = eval_keypoint_detection_coco(*exact, gt_areas=[[100] * 3] * 2)
    for key in AREA_KEYS:
        assert key in result and 'm' + key in result
    # Areas of 100 are in neither the medium nor the large range.
    assert numpy.isnan(result['map/iou=0.50:0.95/area=medium/max_dets=20'])
    assert result['map/iou=0.50:0.95/area=all/max_dets=20'] == 1


def test_crowded(exact):
    result = eval_keypoint_detection_coco(*exact, gt_crowdeds=[[True] * 3] * 2)
    # When the only ground truth is crowded, nothing is evaluated: all results are NaN.
    for key in KEYS[:3] + KEYS[5:8]:
        assert numpy.isnan(result['m' + key])


# Hand-computed cases.

def test_oks_hand_computed():
    # Every point moved by 6 pixels, area 40 * 40 = 1600 (the box of the points at 40 / 4
    # spacing is 30 * 40; the area is given): OKS = mean_k exp(-36 / (2 * 1600 * (2 s_k)^2)).
    gt = person(100, 100)
    oks = numpy.mean(numpy.exp(-36 / (2 * 1600 * (2 * SIGMAS) ** 2)))
    thresholds = numpy.linspace(0.5, 0.95, 10)
    assert numpy.abs(thresholds - oks).min() > 0.01
    expected = numpy.mean(thresholds <= oks)
    result = eval_keypoint_detection_coco([[gt + [6, 0]]], [[0]], [[1.]], [[gt]],
                                          [numpy.ones((1, 17), bool)], gt_areas=[[1600.]])
    assert result['mar/iou=0.50:0.95/area=all/max_dets=20'] == pytest.approx(expected)
    assert result['map/iou=0.50:0.95/area=medium/max_dets=20'] == pytest.approx(expected)
    assert numpy.isnan(result['map/iou=0.50:0.95/area=large/max_dets=20'])


def test_invisible_keypoints_do_not_count():
    # Points far off on the invisible keypoints leave the OKS at 1, as do visibilities given
    # as integers (COCO's v = 0, 1, 2).
    gt = person(100, 100)
    pred = gt.copy()
    pred[:5] += 200
    for visible in (numpy.arange(17) >= 5, numpy.where(numpy.arange(17) >= 5, 2, 0)):
        result = eval_keypoint_detection_coco([[pred]], [[0]], [[1.]], [[gt]], [[visible]])
        assert result['m' + KEY] == pytest.approx(1)
    result = eval_keypoint_detection_coco([[pred]], [[0]], [[1.]], [[gt]],
                                          [numpy.ones((1, 17), bool)])
    assert result['m' + KEY] < 0.5


def test_object_without_visible_keypoint_is_ignored():
    # Object 1 has no visible keypoint: a prediction inside its box enlarged by the box's
    # size on each side (here from gt_bboxes: y and x in [290, 320]) has OKS 1 with it and
    # is ignored, not a false positive ranked before the true one.
    seen, unseen = person(100, 100), person(300, 300)
    visibles = [numpy.array([[True] * 17, [False] * 17])]
    bboxes = [numpy.array([[100, 100, 130, 140], [300, 300, 310, 310]], numpy.float32)]
    inside = person(302, 302, size=10)
    result = eval_keypoint_detection_coco([[inside, seen]], [[0, 0]], [[0.9, 0.5]],
                                          [[seen, unseen]], visibles, bboxes)
    assert result['m' + KEY] == pytest.approx(1)
    # Beyond the enlarged box, it is a false positive: precision 1/2 at recall 1.
    outside = person(330, 330, size=20)
    result = eval_keypoint_detection_coco([[outside, seen]], [[0, 0]], [[0.9, 0.5]],
                                          [[seen, unseen]], visibles, bboxes)
    assert result['m' + KEY] == pytest.approx(0.5)
    # Without gt_bboxes, the box is the one around the object's points (y in [300, 330],
    # x in [300, 340]; enlarged, y in [270, 360] and x in [260, 380]): inside again.
    result = eval_keypoint_detection_coco([[outside, seen]], [[0, 0]], [[0.9, 0.5]],
                                          [[seen, unseen]], visibles)
    assert result['m' + KEY] == pytest.approx(1)


def test_crowd_takes_any_number_of_detections():
    # Three predictions on a crowd (OKS above 0.95): all matched to it and ignored; the
    # regular object then has precision 1.
    crowd, regular = person(100, 100), person(300, 300)
    visible = numpy.ones((2, 17), bool)
    preds = [[crowd, crowd + 0.2, crowd - 0.2, regular]]
    scores = [[0.9, 0.8, 0.7, 0.1]]
    result = eval_keypoint_detection_coco(preds, [[0, 0, 0, 0]], scores, [[crowd, regular]],
                                          [visible], gt_crowdeds=[[True, False]])
    assert result['m' + KEY] == pytest.approx(1)
    # Not crowded, it takes one: two false positives before the last true one.
    result = eval_keypoint_detection_coco(preds, [[0, 0, 0, 0]], scores, [[crowd, regular]],
                                          [visible])
    assert result['map/iou=0.50/area=all/max_dets=20'] == pytest.approx((51 + 50 * 0.5) / 101)


def test_ties_keep_input_order():
    # Two predictions of equal score on one object: the first in input order takes it.
    gt = person(100, 100)
    far = gt + [0, 3]
    visible = [numpy.ones((1, 17), bool)]
    first_far = eval_keypoint_detection_coco([[far, gt]], [[0, 0]], [[0.5, 0.5]], [[gt]],
                                             visible)
    first_exact = eval_keypoint_detection_coco([[gt, far]], [[0, 0]], [[0.5, 0.5]], [[gt]],
                                               visible)
    assert first_exact['m' + KEY] == pytest.approx(1)
    assert first_far['m' + KEY] < 0.9


def test_at_most_20_detections_per_image_and_class():
    # 20 false positives of higher score push the true one out.
    gt = person(100, 100)
    preds = [person(300 + 10 * i, 300) for i in range(20)] + [gt]
    scores = numpy.linspace(1, 0.5, 21)
    result = eval_keypoint_detection_coco([preds], [numpy.zeros(21, int)], [scores], [[gt]],
                                          [numpy.ones((1, 17), bool)])
    assert result['m' + KEY] == 0
    result = eval_keypoint_detection_coco([preds[1:]], [numpy.zeros(20, int)], [scores[1:]],
                                          [[gt]], [numpy.ones((1, 17), bool)])
    assert result['m' + KEY] > 0


def test_empty_predictions_and_ground_truth():
    gt = person(100, 100)
    no_label = numpy.zeros(0, numpy.int32)
    visible = [numpy.ones((1, 17), bool)]
    # No prediction (as ChainerCV's datasets give empty points): AP 0 for the class.
    for no_point in (numpy.zeros((0, 17, 2), numpy.float32), numpy.zeros((0, 0, 2))):
        result = eval_keypoint_detection_coco([no_point], [no_label], [no_label], [[gt]],
                                              visible, gt_labels=[[1]])
        numpy.testing.assert_equal(result[KEY], [numpy.nan, 0])
    # No ground truth: nothing is defined.
    result = eval_keypoint_detection_coco([[gt]], [[1]], [[0.5]], [numpy.zeros((0, 0, 2))],
                                          [numpy.zeros((0, 0), bool)])
    numpy.testing.assert_equal(result[KEY], [numpy.nan, numpy.nan])
    assert numpy.isnan(result['m' + KEY])
    # Nothing at all, or no image.
    no_point = numpy.zeros((0, 17, 2))
    for args in ([[no_point], [no_label], [no_label], [no_point], [numpy.zeros((0, 17))]],
                 [[]] * 5):
        result = eval_keypoint_detection_coco(*args)
        assert result[KEY].shape == (0,) and numpy.isnan(result['m' + KEY])
        assert result['existent_labels'].shape == (0,)


def test_classes_on_one_side():
    # Class 1 only predicted, class 3 only in the ground truth (AP 0), class 2 absent.
    a, b = person(100, 100), person(300, 300)
    result = eval_keypoint_detection_coco([[a, b]], [[0, 1]], [[0.3, 0.6]], [[a, b]],
                                          [numpy.ones((2, 17), bool)], gt_labels=[[0, 3]])
    numpy.testing.assert_equal(result['existent_labels'], [0, 1, 3])
    numpy.testing.assert_allclose(result[KEY], [1, numpy.nan, numpy.nan, 0])
    assert result['m' + KEY] == pytest.approx(0.5)


# Against pycocotools.

@pytest.mark.parametrize('seed', range(8))
def test_random_against_pycocotools(seed, pycocotools_keypoints):
    rng = numpy.random.default_rng(seed)
    data = list(random_keypoints(rng, quantum=(None, 1., 0.5, None)[seed % 4],
                                 dtype=(numpy.float32, numpy.float64)[seed % 2]))
    for index, every in ((5, 3), (7, 4), (8, 5)):  # bboxes, areas, crowdeds left out
        if seed % every == 1:
            data[index] = None
    result = eval_keypoint_detection_coco(*data)
    assert_same_arrays(result, pycocotools_keypoints(*data))
    assert (AREA_KEYS[0] in result) == (data[7] is not None)


def test_many_predictions_against_pycocotools(pycocotools_keypoints):
    # Up to 60 predictions of a class in an image, with tied scores: COCOeval keeps 20.
    data = random_keypoints(numpy.random.default_rng(1), n_image=6, n_class=2, max_gt=10,
                            max_pred=120, quantum=2.)
    assert max(numpy.bincount(label).max(initial=0) for label in data[1]) > 20
    assert_same_arrays(eval_keypoint_detection_coco(*data), pycocotools_keypoints(*data))


def test_no_labels_is_one_class_against_pycocotools(pycocotools_keypoints):
    data = list(random_keypoints(numpy.random.default_rng(2), n_class=1))
    data[6] = None
    assert_same_arrays(eval_keypoint_detection_coco(*data), pycocotools_keypoints(*data))


def test_summary_matches_pycocotools(pycocotools_keypoints, capsys):
    # With one class, each ChainerCV mean is the number pycocotools' summarize() prints.
    data = random_keypoints(numpy.random.default_rng(3), n_image=30, n_class=1)
    result = eval_keypoint_detection_coco(*data)
    evaluator = pycocotools_keypoints(*data)
    evaluator.summarize()
    expected = capsys.readouterr().out
    result['coco_eval'].summarize()
    assert capsys.readouterr().out.strip() == expected.strip()
    numpy.testing.assert_allclose(result['coco_eval'].stats, evaluator.stats, atol=1e-6)
    means = [result['m' + key] for key in KEYS]
    numpy.testing.assert_allclose(means, evaluator.stats, atol=1e-6)
    numpy.testing.assert_allclose([result[key][0] for key in KEYS], means)


# The result.

def test_result_layout():
    gt = person(100, 100)
    result = eval_keypoint_detection_coco([[gt]], [[2]], [[0.5]], [[gt]],
                                          [numpy.ones((1, 17), bool)], gt_labels=[[2]],
                                          gt_areas=[[5000.]])
    for key in KEYS:
        assert result[key].dtype == numpy.float64 and result[key].shape == (3,)
        assert isinstance(result['m' + key], float)
    evaluation = result['coco_eval']
    assert evaluation.eval['precision'].shape == (10, 101, 1, 3, 1)
    assert evaluation.params.maxDets == [20]
    assert evaluation.params.areaRngLbl == ['all', 'medium', 'large']
    protocol = result['protocol']
    assert protocol['iou_type'] == 'keypoints' and protocol['max_dets'] == (20,)
    numpy.testing.assert_allclose(protocol['sigmas'], SIGMAS)
    assert protocol['areas'] == 'gt_areas'


def test_generators_and_lists():
    gt = person(100, 100).tolist()
    result = eval_keypoint_detection_coco(
        (p for p in [[gt]]), iter([[0]]), [[0.5]], [[gt]], [[[1] * 17]], gt_labels=None)
    assert result['m' + KEY] == pytest.approx(1)


def test_does_not_import_pycocotools():
    code = ('import sys, numpy; from vision.evaluations import eval_keypoint_detection_coco; '
            'p = numpy.ones((1, 17, 2)); '
            'eval_keypoint_detection_coco([p], [[0]], [[1.]], [p], [numpy.ones((1, 17), bool)]); '
            'assert "pycocotools" not in sys.modules')
    subprocess.run([sys.executable, '-c', code], check=True)


# Bad input.

@pytest.mark.parametrize('change, error, match', [
    ({'pred_points': [numpy.zeros((1, 15, 2))]}, ValueError,
     r'eval_keypoint_detection_coco: pred_points\[0\] must have shape \(R, 17, 2\), but got '
     r'shape \(1, 15, 2\)'),
    ({'gt_points': [numpy.zeros((2, 0, 2))]}, ValueError,
     r'gt_points\[0\] must have shape \(R, 17, 2\), but got shape \(2, 0, 2\)'),
    ({'gt_points': [numpy.full((1, 17, 2), 'a')]}, TypeError,
     r'gt_points\[0\] must be an integer or floating-point array, but got dtype <U1'),
    ({'gt_visibles': [numpy.ones((1, 16), bool)]}, ValueError,
     r'eval_keypoint_detection_coco: gt_visibles\[0\] must have shape \(R, 17\), but got '
     r'shape \(1, 16\)'),
    ({'gt_visibles': [numpy.ones((1, 17))]}, TypeError,
     r'gt_visibles\[0\] must be a boolean or integer array, but got dtype float64'),
    ({'gt_bboxes': [[[0, 0, 1]]]}, ValueError,
     r'gt_bboxes\[0\] must have shape \(R, 4\), but got shape \(1, 3\)'),
    ({'gt_labels': [[0.5]]}, TypeError,
     r'gt_labels\[0\] must be an integer array, but got dtype float64'),
    ({'pred_scores': [[numpy.nan]]}, ValueError, r'pred_scores\[0\] must not contain NaN'),
    ({'gt_visibles': []}, ValueError,
     r'every input must have one entry per image, but gt_visibles ended after 0 images'),
])
def test_bad_input(change, error, match):
    point = numpy.zeros((1, 17, 2))
    args = {'pred_points': [point], 'pred_labels': [[0]], 'pred_scores': [[1.]],
            'gt_points': [point], 'gt_visibles': [numpy.ones((1, 17), bool)]}
    args.update(change)
    with pytest.raises(error, match=match):
        eval_keypoint_detection_coco(**args)


def test_parameters_are_pycocotools(pycocotools_keypoints):
    # The recorded parameters are COCOeval's for keypoints, bit for bit: images numbered from
    # 1, the area ranges all, medium and large, and maxDets 20.
    data = random_keypoints(numpy.random.default_rng(4), n_image=4)
    ours = eval_keypoint_detection_coco(*data)['coco_eval'].params
    theirs = pycocotools_keypoints(*data).params
    assert ours.imgIds == theirs.imgIds == [1, 2, 3, 4]
    assert ours.catIds == theirs.catIds
    numpy.testing.assert_array_equal(ours.iouThrs, theirs.iouThrs)
    numpy.testing.assert_array_equal(ours.recThrs, theirs.recThrs)
    assert ours.areaRng == theirs.areaRng == [[0, 1e10], [1024, 9216], [9216, 1e10]]
    assert ours.areaRngLbl == theirs.areaRngLbl == ['all', 'medium', 'large']
    assert ours.maxDets == theirs.maxDets == [20]
    assert ours.iouType == theirs.iouType == 'keypoints'

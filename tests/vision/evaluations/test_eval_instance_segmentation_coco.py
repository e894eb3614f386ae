import numpy
import pytest

from vision.evaluations import eval_instance_segmentation_coco

KEY = 'ap/iou=0.50:0.95/area=all/max_dets=100'
KEYS = ['ap/iou=0.50:0.95/area=all/max_dets=100', 'ap/iou=0.50/area=all/max_dets=100',
        'ap/iou=0.75/area=all/max_dets=100', 'ar/iou=0.50:0.95/area=all/max_dets=1',
        'ar/iou=0.50:0.95/area=all/max_dets=10', 'ar/iou=0.50:0.95/area=all/max_dets=100']
AREA_KEYS = [f'{kind}/iou=0.50:0.95/area={area}/max_dets=100'
             for kind in ('ap', 'ar') for area in ('small', 'medium', 'large')]


# ChainerCV's own cases.

@pytest.fixture
def simple():
    return (numpy.array([[[[True, True], [True, True]], [[True, False], [False, True]]]]),
            numpy.array([[0, 0]]), numpy.array([[0.8, 0.9]]),
            numpy.array([[[[True, True], [True, True]]]]), numpy.array([[0, 0]]))


def test_crowded(simple):
    result = eval_instance_segmentation_coco(*simple, gt_crowdeds=[[True]])
    for key in KEYS:
        assert numpy.isnan(result['m' + key])


def test_area_not_supplied(simple):
    result = eval_instance_segmentation_coco(*simple)
    for key in AREA_KEYS:
        assert key not in result and 'm' + key not in result


def test_area_specified(simple):
    result = eval_instance_segmentation_coco(*simple, gt_areas=[[2048]])
    assert not numpy.isnan(result['map/iou=0.50:0.95/area=medium/max_dets=100'])
    assert numpy.isnan(result['map/iou=0.50:0.95/area=small/max_dets=100'])
    assert numpy.isnan(result['map/iou=0.50:0.95/area=large/max_dets=100'])


def test_some_class_non_existent(simple):
    result = eval_instance_segmentation_coco(simple[0], numpy.array([[1, 2]]), simple[2],
                                             simple[3], numpy.array([[1, 2]]))
    assert result[KEY].shape == (3,)
    assert numpy.isnan(result[KEY][0])
    assert numpy.nanmean(result[KEY][1:]) == result['m' + KEY]


def test_empty_prediction(simple):
    result = eval_instance_segmentation_coco(
        numpy.zeros((1, 0, 2, 2), dtype=bool), numpy.zeros((1, 0), dtype=numpy.int32),
        numpy.zeros((1, 0), dtype=numpy.float32), simple[3], numpy.array([[1, 2]]))
    assert result[KEY].shape == (2,)
    assert numpy.isnan(result[KEY][0])
    assert numpy.nanmean(result[KEY][1:]) == result['m' + KEY]


# Hand-computed cases.

def test_mask_iou_hand_computed():
    # The prediction covers 3 of the object's 4 pixels and nothing else: IoU 0.75, a match at
    # the 6 thresholds 0.5, ..., 0.75; AR is 0.6.
    gt = numpy.ones((1, 2, 2), bool)
    pred = numpy.array([[[True, True], [True, False]]])
    result = eval_instance_segmentation_coco([pred], [[0]], [[1.]], [gt], [[0]])
    assert result['mar/iou=0.50:0.95/area=all/max_dets=100'] == pytest.approx(0.6)
    # Crowded, the IoU is 3 / 3 (over the prediction's pixels): matched and ignored.
    result = eval_instance_segmentation_coco([pred], [[0]], [[1.]], [gt], [[0]],
                                             gt_crowdeds=[[True]])
    numpy.testing.assert_equal(result['coco_eval'].eval['recall'], -1)


# Against pycocotools.

def _random_masks(rng, n, height, width):
    masks = numpy.zeros((n, height, width), dtype=bool)
    for mask in masks:
        y0, x0 = rng.integers(0, height - 1), rng.integers(0, width - 1)
        y1, x1 = rng.integers(y0 + 1, height + 1), rng.integers(x0 + 1, width + 1)
        mask[y0:y1, x0:x1] = rng.uniform(size=(y1 - y0, x1 - x0)) < 0.9
    return masks


def _random_segmentations(rng, random_areas, n_image=10, n_class=3):
    columns = tuple([] for _ in range(7))
    for _ in range(n_image):
        height, width = rng.integers(6, 40, 2)
        n_gt, n_pred = rng.integers(0, 5), rng.integers(0, 10)
        gt_mask = _random_masks(rng, n_gt, height, width)
        pred_mask = _random_masks(rng, n_pred, height, width)
        if n_gt:
            # Half of the predictions are noisy copies of objects.
            copy = rng.uniform(size=n_pred) < 0.5
            noise = rng.uniform(size=(copy.sum(), height, width)) < 0.05
            pred_mask[copy] = gt_mask[rng.integers(0, n_gt, copy.sum())] ^ noise
        for column, value in zip(columns, (
                pred_mask, rng.integers(0, n_class, n_pred),
                numpy.round(rng.uniform(size=n_pred) * 4) / 4, gt_mask,
                rng.integers(0, n_class, n_gt), random_areas(rng, n_gt),
                rng.uniform(size=n_gt) < 0.2)):
            column.append(value)
    return columns


@pytest.mark.parametrize('seed', range(6))
def test_random_against_pycocotools(seed, pycocotools_eval, make_areas):
    data = _random_segmentations(numpy.random.default_rng(seed), make_areas)
    gt_areas = data[5] if seed % 2 else None
    gt_crowdeds = data[6] if seed % 3 else None
    result = eval_instance_segmentation_coco(*data[:5], gt_areas, gt_crowdeds)
    evaluator = pycocotools_eval('segm', *data[:5], gt_areas, gt_crowdeds)
    numpy.testing.assert_allclose(result['coco_eval'].eval['precision'],
                                  evaluator.eval['precision'], rtol=0, atol=1e-6)
    numpy.testing.assert_allclose(result['coco_eval'].eval['recall'],
                                  evaluator.eval['recall'], rtol=0, atol=1e-6)
    numpy.testing.assert_equal(result['existent_labels'], evaluator.params.catIds)
    assert (AREA_KEYS[0] in result) == (gt_areas is not None)


def test_result_layout():
    mask = numpy.ones((1, 3, 3), bool)
    result = eval_instance_segmentation_coco([mask], [[1]], [[1.]], [mask], [[1]])
    assert result[KEY].shape == (2,) and result[KEY].dtype == numpy.float64
    assert result['protocol']['iou_type'] == 'segm'
    assert result['protocol']['areas'] == 'mask areas'
    assert result['coco_eval'].params.iouType == 'segm'


# Bad input.

@pytest.mark.parametrize('change, error, match', [
    ({'gt_masks': [numpy.ones((1, 3, 2), bool)]}, ValueError,
     r'eval_instance_segmentation_coco: pred_masks\[0\] and gt_masks\[0\] must have the same '
     r'\(H, W\), but got shapes \(1, 2, 2\) and \(1, 3, 2\)'),
    ({'pred_masks': [numpy.ones((1, 2, 2), numpy.uint8)]}, TypeError,
     r'eval_instance_segmentation_coco: pred_masks\[0\] must be a boolean array, but got '
     r'dtype uint8'),
    ({'pred_masks': [numpy.ones((2, 2), bool)]}, ValueError,
     r'pred_masks\[0\] must have shape \(R, H, W\), but got shape \(2, 2\)'),
    ({'gt_labels': []}, ValueError,
     r'every input must have one entry per image, but gt_labels ended after 0 images'),
])
def test_bad_input(change, error, match):
    mask = numpy.ones((1, 2, 2), bool)
    args = {'pred_masks': [mask], 'pred_labels': [[0]], 'pred_scores': [[1.]],
            'gt_masks': [mask], 'gt_labels': [[0]]}
    args.update(change)
    with pytest.raises(error, match=match):
        eval_instance_segmentation_coco(**args)

"""DetectionCOCOEvaluator and InstanceSegmentationCOCOEvaluator: the same report, of
``eval_detection_coco`` and ``eval_instance_segmentation_coco``."""

import numpy
import pytest

from framework.iterators import SerialIterator
from vision.evaluations import eval_detection_coco, eval_instance_segmentation_coco

EVALUATIONS = {'detection_coco': eval_detection_coco,
               'instance_segmentation_coco': eval_instance_segmentation_coco}
_ALL = ['ap/iou=0.50:0.95/area=all/max_dets=100', 'ap/iou=0.50/area=all/max_dets=100',
        'ap/iou=0.75/area=all/max_dets=100', 'ar/iou=0.50:0.95/area=all/max_dets=1',
        'ar/iou=0.50:0.95/area=all/max_dets=10', 'ar/iou=0.50:0.95/area=all/max_dets=100']
_AREAS = [f'{kind}/iou=0.50:0.95/area={area}/max_dets=100'
          for kind in ('ap', 'ar') for area in ('small', 'medium', 'large')]


def _run(case, **kwargs):
    iterator = SerialIterator(case.samples, 2, repeat=False, shuffle=False)
    return case.evaluator(iterator, case.link(), **kwargs)()


@pytest.mark.parametrize('with_areas', [True, False])
@pytest.mark.parametrize('kind', EVALUATIONS)
def test_reports_the_precisions_and_recalls(cases, kind, with_areas):
    case = cases.make_case(kind, full=with_areas)
    values = _run(case, label_names=cases.LABEL_NAMES)

    expected = EVALUATIONS[kind](*case.predictions, *case.ground_truth)
    keys = _ALL + _AREAS if with_areas else _ALL
    assert 0 < expected['map/iou=0.50:0.95/area=all/max_dets=100'] < 1
    assert sorted(values) == sorted(
        [f'main/m{key}' for key in keys]
        + [f'main/{key}/{name}' for key in keys for name in cases.LABEL_NAMES])
    for key in keys:
        numpy.testing.assert_equal(values[f'main/m{key}'], expected[f'm{key}'])
        for label, name in enumerate(['cat', 'dog', 'bird']):
            numpy.testing.assert_equal(values[f'main/{key}/{name}'], expected[key][label])
        assert numpy.isnan(values[f'main/{key}/absent'])


@pytest.mark.parametrize('with_areas', [True, False])
@pytest.mark.parametrize('kind', EVALUATIONS)
def test_only_the_means_without_label_names(cases, kind, with_areas):
    values = _run(cases.make_case(kind, full=with_areas))
    keys = _ALL + _AREAS if with_areas else _ALL
    assert sorted(values) == sorted(f'main/m{key}' for key in keys)

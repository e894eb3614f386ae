"""DetectionVOCEvaluator and InstanceSegmentationVOCEvaluator: the same report, of
``eval_detection_voc`` and ``eval_instance_segmentation_voc``; difficult objects for the one,
an IoU threshold for the other."""

import numpy
import pytest

from framework.iterators import SerialIterator
from vision.evaluations import eval_detection_voc, eval_instance_segmentation_voc

EVALUATIONS = {'detection_voc': eval_detection_voc,
               'instance_segmentation_voc': eval_instance_segmentation_voc}


def _run(case, **kwargs):
    iterator = SerialIterator(case.samples, 2, repeat=False, shuffle=False)
    return case.evaluator(iterator, case.link(), **kwargs)()


@pytest.mark.parametrize('use_07_metric', [False, True])
@pytest.mark.parametrize(('kind', 'full', 'kwargs'), [
    ('detection_voc', True, {}),  # with difficult flags
    ('detection_voc', False, {}),
    ('instance_segmentation_voc', True, {}),
    ('instance_segmentation_voc', True, {'iou_thresh': 0.7}),
])
def test_reports_the_average_precisions(cases, kind, full, kwargs, use_07_metric):
    case = cases.make_case(kind, full=full)
    values = _run(case, use_07_metric=use_07_metric, label_names=cases.LABEL_NAMES, **kwargs)

    expected = EVALUATIONS[kind](*case.predictions, *case.ground_truth,
                                 use_07_metric=use_07_metric, **kwargs)
    assert 0 < expected['map'] < 1
    assert sorted(values) == sorted(['main/map', 'main/ap/cat', 'main/ap/dog', 'main/ap/bird',
                                     'main/ap/absent'])
    assert values['main/map'] == expected['map']
    for label, name in enumerate(['cat', 'dog', 'bird']):
        assert values[f'main/ap/{name}'] == expected['ap'][label]
    assert numpy.isnan(values['main/ap/absent'])


def test_difficult_objects_are_ignored(cases):
    case = cases.make_case('detection_voc')
    without = cases.make_case('detection_voc', full=False)
    assert _run(case)['main/map'] != _run(without)['main/map']


def test_the_threshold_matters(cases):
    case = cases.make_case('instance_segmentation_voc')
    assert _run(case, iou_thresh=0.3)['main/map'] > _run(case, iou_thresh=0.9)['main/map']


@pytest.mark.parametrize('kind', EVALUATIONS)
def test_only_the_mean_without_label_names(cases, kind):
    assert list(_run(cases.make_case(kind))) == ['main/map']

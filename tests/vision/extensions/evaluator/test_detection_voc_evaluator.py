import numpy
import pytest

from framework.iterators import SerialIterator
from vision.evaluations import eval_detection_voc
from vision.extensions import DetectionVOCEvaluator


def _run(case, **kwargs):
    iterator = SerialIterator(case.samples, 2, repeat=False, shuffle=False)
    return DetectionVOCEvaluator(iterator, case.link(), **kwargs)()


@pytest.mark.parametrize('use_07_metric', [False, True])
@pytest.mark.parametrize('with_difficult', [True, False])
def test_reports_the_average_precisions(cases, use_07_metric, with_difficult):
    case = cases.make_case('detection_voc', full=with_difficult)
    values = _run(case, use_07_metric=use_07_metric, label_names=cases.LABEL_NAMES)

    gt_bboxes, gt_labels, *gt_difficults = case.ground_truth
    expected = eval_detection_voc(*case.predictions, gt_bboxes, gt_labels,
                                  gt_difficults[0] if with_difficult else None,
                                  use_07_metric=use_07_metric)
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


def test_only_the_mean_without_label_names(cases):
    values = _run(cases.make_case('detection_voc'))
    assert list(values) == ['main/map']

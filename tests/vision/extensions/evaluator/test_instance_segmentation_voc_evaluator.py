import numpy
import pytest

from framework.iterators import SerialIterator
from vision.evaluations import eval_instance_segmentation_voc
from vision.extensions import InstanceSegmentationVOCEvaluator


def _run(case, **kwargs):
    iterator = SerialIterator(case.samples, 2, repeat=False, shuffle=False)
    return InstanceSegmentationVOCEvaluator(iterator, case.link(), **kwargs)()


@pytest.mark.parametrize('iou_thresh, use_07_metric', [(0.5, False), (0.7, True)])
def test_reports_the_average_precisions(cases, iou_thresh, use_07_metric):
    case = cases.make_case('instance_segmentation_voc')
    values = _run(case, iou_thresh=iou_thresh, use_07_metric=use_07_metric,
                  label_names=cases.LABEL_NAMES)

    expected = eval_instance_segmentation_voc(*case.predictions, *case.ground_truth,
                                              iou_thresh=iou_thresh,
                                              use_07_metric=use_07_metric)
    assert 0 < expected['map'] < 1
    assert sorted(values) == sorted(['main/map', 'main/ap/cat', 'main/ap/dog', 'main/ap/bird',
                                     'main/ap/absent'])
    assert values['main/map'] == expected['map']
    for label, name in enumerate(['cat', 'dog', 'bird']):
        assert values[f'main/ap/{name}'] == expected['ap'][label]
    assert numpy.isnan(values['main/ap/absent'])


def test_the_threshold_matters(cases):
    case = cases.make_case('instance_segmentation_voc')
    assert _run(case, iou_thresh=0.3)['main/map'] > _run(case, iou_thresh=0.9)['main/map']


def test_only_the_mean_without_label_names(cases):
    assert list(_run(cases.make_case('instance_segmentation_voc'))) == ['main/map']

import numpy

from framework.iterators import SerialIterator
from vision.evaluations import eval_semantic_segmentation
from vision.extensions import SemanticSegmentationEvaluator

_MEANS = ['main/miou', 'main/pixel_accuracy', 'main/mean_class_accuracy']


def _run(case, **kwargs):
    iterator = SerialIterator(case.samples, 2, repeat=False, shuffle=False)
    return SemanticSegmentationEvaluator(iterator, case.link(), **kwargs)()


def test_reports_the_ious_and_accuracies(cases):
    case = cases.make_case('semantic_segmentation')
    values = _run(case, label_names=cases.LABEL_NAMES)

    expected = eval_semantic_segmentation(*case.predictions, *case.ground_truth)
    assert 0 < expected['miou'] < 1
    assert sorted(values) == sorted(
        _MEANS + [f'main/{key}/{name}' for key in ('iou', 'class_accuracy')
                  for name in cases.LABEL_NAMES])
    for key in _MEANS:
        assert values[key] == expected[key[len('main/'):]]
    for label, name in enumerate(['cat', 'dog', 'bird']):
        assert values[f'main/iou/{name}'] == expected['iou'][label]
        assert values[f'main/class_accuracy/{name}'] == expected['class_accuracy'][label]
    assert numpy.isnan(values['main/iou/absent'])
    assert numpy.isnan(values['main/class_accuracy/absent'])


def test_only_the_means_without_label_names(cases):
    assert sorted(_run(cases.make_case('semantic_segmentation'))) == sorted(_MEANS)

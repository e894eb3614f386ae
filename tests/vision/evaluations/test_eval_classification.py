import numpy
import pytest

from vision.evaluations import eval_classification


def test_top_k_accuracies():
    scores = numpy.array([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3], [0.2, 0.3, 0.5]])
    labels = numpy.array([1, 2, 0])
    result = eval_classification(scores, labels, (1, 2, 3, 5))
    assert result == pytest.approx({'top-1 accuracy': 1 / 3, 'top-2 accuracy': 2 / 3,
                                    'top-3 accuracy': 1.0, 'top-5 accuracy': 1.0})


def test_iterables_of_images_as_predict_returns_them():
    rng = numpy.random.RandomState(0)
    scores = rng.rand(20, 7).astype(numpy.float32)
    labels = rng.randint(0, 7, 20)
    expected = eval_classification(scores, labels)
    assert eval_classification(iter(list(scores)), (int(v) for v in labels)) == expected
    ranks = (-scores).argsort(axis=1).argsort(axis=1)[numpy.arange(20), labels]
    assert expected['top-1 accuracy'] == pytest.approx(numpy.mean(ranks < 1))
    assert expected['top-5 accuracy'] == pytest.approx(numpy.mean(ranks < 5))


def test_ties_go_to_the_lower_class():
    scores = numpy.array([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0]])
    result = eval_classification(scores, numpy.array([0, 1]), (1,))
    assert result == {'top-1 accuracy': 0.5}


def test_no_images():
    result = eval_classification([], [], (1,))
    assert numpy.isnan(result['top-1 accuracy'])


@pytest.mark.parametrize('scores, labels, ks, message', [
    (numpy.zeros(3), [0], (1,), r'pred_scores must be \(N, n_class\), but got shape \(3,\)'),
    (numpy.zeros((2, 3)), [0], (1,),
     r'gt_labels must be \(2,\) ints \(one per image\), but got shape \(1,\) and dtype int64'),
    (numpy.zeros((2, 3)), [0.0, 1.0], (1,),
     r'gt_labels must be \(2,\) ints .* dtype float64'),
    (numpy.zeros((2, 3)), [0, 3], (1,), r'gt_labels must be in \[0, 2\], but got values in '
                                        r'\[0, 3\]'),
    (numpy.zeros((2, 3)), [0, 1], (0,), r'ks must be positive ints, but got 0'),
])
def test_bad_arguments(scores, labels, ks, message):
    with pytest.raises(ValueError, match='eval_classification: ' + message):
        eval_classification(scores, labels, ks)

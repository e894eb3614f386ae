import numpy
import pytest

from vision.utils import assert_is_classification_link


class _ClassificationLink:
    """Predicts random probabilities per image, the list passed through ``change``."""

    def __init__(self, change=None, n_class=7):
        self.change, self.n_class = change, n_class

    def predict(self, imgs):
        probs = []
        for _ in imgs:
            p = numpy.random.uniform(0.1, 1, self.n_class)
            probs.append((p / p.sum()).astype(numpy.float32))
        return probs if self.change is None else self.change(probs)


def test_valid():
    assert_is_classification_link(_ClassificationLink(), 7)


@pytest.mark.parametrize('change, message', [
    (numpy.stack, r'predict must return a list with one entry per image, but got a value of '
                  r'type ndarray'),
    (lambda probs: probs[1:], r'probs must have one entry per image \(2\)'),
    (lambda probs: [p[1:] for p in probs], r'image 0: prob must have shape \(7,\), but got '
                                           r'shape \(6,\)'),
    (lambda probs: [p.astype(float) for p in probs], r'image 0: prob must have dtype float32'),
    (lambda probs: [p * 2 for p in probs], r'image 0: prob must sum to 1, but sums to 2'),
    (lambda probs: [p - p.mean() for p in probs], r'image 0: the values of prob must be in '
                                                  r'\[0, 1\]'),
])
def test_invalid(change, message):
    with pytest.raises(AssertionError, match='assert_is_classification_link: ' + message):
        assert_is_classification_link(_ClassificationLink(change), 7)

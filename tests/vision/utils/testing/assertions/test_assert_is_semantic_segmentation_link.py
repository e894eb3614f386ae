import numpy
import pytest

from vision.utils import assert_is_semantic_segmentation_link


class _SemanticSegmentationLink:
    """Predicts random label maps, passed through ``change``."""

    def __init__(self, change=None):
        self.change = change

    def predict(self, imgs):
        labels = [numpy.random.randint(0, 21, size=img.shape[1:]).astype(numpy.int32)
                  for img in imgs]
        return labels if self.change is None else self.change(labels)


def test_valid():
    assert_is_semantic_segmentation_link(_SemanticSegmentationLink(), 21)


@pytest.mark.parametrize('change, message', [
    (lambda labels: labels[1:], r'labels must have one entry per image \(2\)'),
    (lambda labels: [x[1:] for x in labels], r'image 0: label must have shape \(H, W\) = '
                                             r'\(480, 640\), but got shape \(479, 640\)'),
    (lambda labels: [x + 1000 for x in labels], r'image 0: the values of label must be in '
                                                r'\[0, 20\]'),
    (lambda labels: [x - 1 for x in labels], r'image 0: the values of label must be in \[0, 20\]'),
    (lambda labels: [x.astype(numpy.int64) for x in labels],
     'image 0: label must have dtype int32'),
])
def test_invalid(change, message):
    with pytest.raises(AssertionError, match='assert_is_semantic_segmentation_link: ' + message):
        assert_is_semantic_segmentation_link(_SemanticSegmentationLink(change), 21)

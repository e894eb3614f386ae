import numpy
import pytest

from vision.utils import assert_is_instance_segmentation_link


class _InstanceSegmentationLink:
    """Predicts a few random masks per image, each output passed through ``change``."""

    def __init__(self, change=None, n_inst=None):
        self.change, self.n_inst = change, n_inst

    def predict(self, imgs):
        masks, labels, scores = [], [], []
        for img in imgs:
            n_inst = numpy.random.randint(1, 5) if self.n_inst is None else self.n_inst
            masks.append(numpy.random.uniform(size=(n_inst,) + img.shape[1:]) < 0.5)
            labels.append(numpy.random.randint(0, 20, size=n_inst).astype(numpy.int32))
            scores.append(numpy.random.uniform(0, 1, size=n_inst).astype(numpy.float32))
        result = masks, labels, scores
        return result if self.change is None else self.change(*result)


@pytest.mark.parametrize('link', [_InstanceSegmentationLink(),
                                  _InstanceSegmentationLink(n_inst=0)])
def test_valid(link):
    assert_is_instance_segmentation_link(link, 20)


@pytest.mark.parametrize('change, message', [
    (lambda masks, labels, scores: (masks[1:], labels, scores),
     r'masks must have one entry per image \(2\)'),
    (lambda masks, labels, scores: (masks, labels, scores[1:]),
     r'scores must have one entry per image \(2\)'),
    (lambda masks, labels, scores: ([x[:, 1:] for x in masks], labels, scores),
     r'image 0: mask must have shape \(R, H, W\) with \(H, W\) = \(480, 640\)'),
    (lambda masks, labels, scores: ([x.astype(numpy.uint8) for x in masks], labels, scores),
     'image 0: mask must have dtype bool, but got dtype uint8'),
    (lambda masks, labels, scores: (masks, [x[1:] for x in labels], scores),
     'image 0: label must have one entry per mask'),
    (lambda masks, labels, scores: (masks, [x + 1000 for x in labels], scores),
     r'image 0: the values of label must be in \[0, 19\]'),
    (lambda masks, labels, scores: (masks, labels, [x[1:] for x in scores]),
     'image 0: score must have one entry per mask'),
    (lambda masks, labels, scores: (masks, labels, None),
     r'scores must have one entry per image \(2\), but got a value of type NoneType'),
])
def test_invalid(change, message):
    with pytest.raises(AssertionError, match='assert_is_instance_segmentation_link: ' + message):
        assert_is_instance_segmentation_link(_InstanceSegmentationLink(change), 20)

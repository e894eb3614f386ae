import numpy
import pytest

from vision.utils import assert_is_detection_link, generate_random_bbox


class _DetectionLink:
    """Predicts a few random boxes per image, each output passed through ``change``."""

    def __init__(self, change=None, n_bbox=None, points=False):
        self.change, self.n_bbox, self.points = change, n_bbox, points

    def predict(self, imgs):
        bboxes, labels, scores, points = [], [], [], []
        for img in imgs:
            n_bbox = numpy.random.randint(1, 10) if self.n_bbox is None else self.n_bbox
            bboxes.append(generate_random_bbox(n_bbox, img.shape[1:], 4, 12))
            labels.append(numpy.random.randint(0, 20, size=n_bbox).astype(numpy.int32))
            scores.append(numpy.random.uniform(0, 1, size=n_bbox).astype(numpy.float32))
            points.append(numpy.random.uniform(0, 100, (n_bbox, 5, 2)).astype(numpy.float32))
        result = (bboxes, labels, scores) + ((points,) if self.points else ())
        return result if self.change is None else self.change(*result)


@pytest.mark.parametrize('link', [
    _DetectionLink(), _DetectionLink(n_bbox=0),
    _DetectionLink(points=True), _DetectionLink(n_bbox=0, points=True),
])
def test_valid(link):
    assert_is_detection_link(link, 20)


@pytest.mark.parametrize('change, message', [
    (lambda bboxes, labels, scores: (bboxes[1:], labels[1:], scores[1:]),
     r'bboxes must have one entry per image \(2\), but got a value of type list of length 1'),
    (lambda bboxes, labels, scores: (bboxes, labels[1:], scores),
     r'labels must have one entry per image'),
    (lambda bboxes, labels, scores: (bboxes, [x[1:] for x in labels], scores),
     r'image 0: label must have one entry per box'),
    (lambda bboxes, labels, scores: (bboxes, [x + 1000 for x in labels], scores),
     r'image 0: the values of label must be in \[0, 19\]'),
    (lambda bboxes, labels, scores: (bboxes, labels, [x[1:] for x in scores]),
     r'image 0: score must have one entry per box'),
    (lambda bboxes, labels, scores: (bboxes, labels, [x.astype(float) for x in scores]),
     r'image 0: score must have dtype float32, but got dtype float64'),
    (lambda bboxes, labels, scores: ([x[:, ::-1] for x in bboxes], labels, scores),
     r'image 0: each box must have y_min < y_max'),
    (lambda bboxes, labels, scores: (bboxes, labels),
     r'predict must return three values \(bboxes, labels and scores\) or four \(bboxes, '
     r'labels, scores and points\), but got 2'),
])
def test_invalid(change, message):
    with pytest.raises(AssertionError, match='assert_is_detection_link: ' + message):
        assert_is_detection_link(_DetectionLink(change), 20)


@pytest.mark.parametrize('change, message', [
    (lambda bboxes, labels, scores, points: (bboxes, labels, scores, points[1:]),
     r'points must have one entry per image'),
    (lambda bboxes, labels, scores, points: (bboxes, labels, scores, [p[1:] for p in points]),
     r'image 0: points must have one entry per box \(3\), but got 2'),
    (lambda bboxes, labels, scores, points: (bboxes, labels, scores, [p[..., :1] for p in points]),
     r'image 0: points must have shape'),
    (lambda bboxes, labels, scores, points: (bboxes, labels, scores,
                                             [p.astype(float) for p in points]),
     r'image 0: points must have dtype float32'),
])
def test_invalid_points(change, message):
    with pytest.raises(AssertionError, match='assert_is_detection_link: ' + message):
        assert_is_detection_link(_DetectionLink(change, n_bbox=3, points=True), 20)

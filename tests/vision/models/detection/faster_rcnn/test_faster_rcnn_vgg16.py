"""FasterRCNNVGG16 itself, VGG-16's extractor (slim) rather than the tiny one, on bad input:
images of any size down to one pixel or a strip one pixel wide, and grayscale images."""

from __future__ import annotations

import numpy

import framework.random
from vision.models import FasterRCNNVGG16


def test_images_of_any_size_and_grayscale():
    numpy.random.seed(0)
    framework.random.seed(0)  # the initializers' generator
    model = FasterRCNNVGG16(n_fg_class=3, min_size=64, max_size=96, base_channels=8)
    model.score_thresh = 0.
    rng = numpy.random.RandomState(0)
    gray = rng.uniform(0, 255, (1, 40, 30)).astype(numpy.float32)
    imgs = [rng.uniform(0, 255, shape).astype(numpy.float32)
            for shape in ((3, 1, 1), (3, 1, 300), (3, 2000, 1), (3, 50, 70))]
    imgs += [gray, numpy.repeat(gray, 3, axis=0)]
    bboxes, labels, scores = model.predict(imgs)
    for img, bbox, label, score in zip(imgs, bboxes, labels, scores):
        H, W = img.shape[1:]
        assert bbox.dtype == numpy.float32 and bbox.shape == (len(label), 4)
        assert label.dtype == numpy.int32 and score.dtype == numpy.float32
        assert score.shape == label.shape and ((0 <= label) & (label < 3)).all()
        assert (bbox >= 0).all() and (bbox[:, 0::2] <= H).all() and (bbox[:, 1::2] <= W).all()
    assert len(bboxes[3]) > 0
    for output in (bboxes, labels, scores):
        numpy.testing.assert_array_equal(output[4], output[5])

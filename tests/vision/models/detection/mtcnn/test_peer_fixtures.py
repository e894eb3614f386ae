"""MTCNN against facenet-pytorch on photos it was not tuned on (tests/data/mtcnn/, made by
tests/data/make_mtcnn_fixtures.py): a 1920x1080 group photo of nine faces at 60-390 px, a
small grayscale photo, and noise without a face."""

from __future__ import annotations

import json
import pathlib

import numpy
import pytest

from vision.data import sample_photos

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data' / 'mtcnn'


@pytest.mark.parametrize('name', [
    pytest.param('group_photo', marks=pytest.mark.slow), 'grace_hopper_gray_small', 'noise'])
def test_predict_matches_facenet_pytorch(pretrained, name):
    with open(DATA / f'{name}.json', encoding='utf-8') as f:
        ref = json.load(f)
    bboxes, labels, scores, points = pretrained.predict([sample_photos.PHOTOS[name]()])
    bbox, label, score, point = bboxes[0], labels[0], scores[0], points[0]
    want_bbox = numpy.array(ref['boxes_x1y1x2y2']).reshape(-1, 4)[:, [1, 0, 3, 2]]
    want_point = numpy.array(ref['landmarks_xy']).reshape(-1, 5, 2)[:, :, ::-1]
    assert len(bbox) == len(want_bbox), f'{len(bbox)} faces, facenet-pytorch finds {len(want_bbox)}'
    assert bbox.shape == (len(bbox), 4) and point.shape == (len(bbox), 5, 2)
    assert (label == 0).all() and label.dtype == numpy.int32
    # facenet-pytorch's order is not by score: pair each of its faces with our nearest box
    order = [int(numpy.argmin(numpy.abs(bbox - b).sum(axis=1))) for b in want_bbox]
    assert sorted(order) == list(range(len(bbox)))
    numpy.testing.assert_allclose(bbox[order], want_bbox, atol=1)
    numpy.testing.assert_allclose(point[order], want_point, atol=1)
    numpy.testing.assert_allclose(score[order], ref['probs'], atol=1e-3)

"""MTCNN with facenet-pytorch's weights, fetched through the manifest: parity with
facenet-pytorch on grace_hopper.jpg (``tests/data/mtcnn/grace_hopper.json``) and on the
sample photos of :mod:`vision.data.sample_photos` (a group photo of nine faces, a small
grayscale photo, noise)."""

import json
import os
import pathlib

import numpy
import pytest

from vision.data.sample_photos import PHOTOS
from vision.models.detection.mtcnn import MTCNN, load_facenet_pytorch_weights

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data' / 'mtcnn'


def random_model():
    numpy.random.seed(0)
    return MTCNN(pretrained_model=None)


def test_facenet_pytorch_weights_load_from_a_folder(tmp_path, facenet_pytorch_paths, pretrained):
    for net, path in facenet_pytorch_paths.items():
        os.symlink(path, tmp_path / f'{net}.pt')
    model = MTCNN(pretrained_model=str(tmp_path))
    for (name, param), (_, other) in zip(model.namedparams(), pretrained.namedparams()):
        numpy.testing.assert_array_equal(param.array, other.array, err_msg=name)


def test_facenet_pytorch_weights_fill_every_parameter(facenet_pytorch_paths):
    model = random_model()
    for param in model.params():
        param.array[...] = numpy.nan
    load_facenet_pytorch_weights(model, facenet_pytorch_paths)
    assert all(numpy.isfinite(param.array).all() for param in model.params())


def test_a_face_free_image_gives_empty_arrays(pretrained):
    bboxes, labels, scores, points = pretrained.predict(
        [numpy.full((3, 120, 160), 128, dtype=numpy.float32)])
    assert bboxes[0].shape == (0, 4) and bboxes[0].dtype == numpy.float32
    assert labels[0].shape == (0,) and labels[0].dtype == numpy.int32
    assert scores[0].shape == (0,) and scores[0].dtype == numpy.float32
    assert points[0].shape == (0, 5, 2) and points[0].dtype == numpy.float32


def test_parity_with_facenet_pytorch_on_grace_hopper(pretrained, grace_hopper):
    img, expected = grace_hopper
    assert img.shape[1:] == tuple(expected['size_wh'][::-1])
    bboxes, labels, scores, points = pretrained.predict([img])
    box = numpy.array(expected['boxes_x1y1x2y2'])[:, [1, 0, 3, 2]]
    assert bboxes[0].shape == box.shape
    numpy.testing.assert_allclose(bboxes[0], box, atol=1)
    numpy.testing.assert_array_equal(labels[0], numpy.zeros(len(box), dtype=numpy.int32))
    numpy.testing.assert_allclose(scores[0], expected['probs'], atol=1e-3)
    numpy.testing.assert_allclose(points[0], numpy.array(expected['landmarks_xy'])[..., ::-1],
                                  atol=1)


def assert_same_detections(prediction, expected):
    """Ours against facenet-pytorch's (ordered by box area): the same faces, boxes and
    landmarks within 1 px, probabilities within 1e-3."""
    bbox, label, score, point = (output[0] for output in prediction)
    box = numpy.array(expected['boxes_x1y1x2y2'], dtype=numpy.float64).reshape(-1, 4)
    assert len(bbox) == len(box)
    numpy.testing.assert_array_equal(label, numpy.zeros(len(box), dtype=numpy.int32))
    box = box[:, [1, 0, 3, 2]]
    match = [int(numpy.abs(bbox - b).max(axis=1).argmin()) for b in box]
    assert sorted(match) == list(range(len(bbox)))
    numpy.testing.assert_allclose(bbox[match], box, atol=1)
    numpy.testing.assert_allclose(score[match], expected['probs'], atol=1e-3)
    landmark = numpy.array(expected['landmarks_xy'], dtype=numpy.float64).reshape(-1, 5, 2)
    numpy.testing.assert_allclose(point[match], landmark[..., ::-1], atol=1)


@pytest.mark.parametrize('name', [pytest.param('group_photo', marks=pytest.mark.slow),
                                  'grace_hopper_gray_small', 'noise'])
def test_parity_with_facenet_pytorch_on_the_sample_photos(pretrained, name):
    with open(DATA / f'{name}.json', encoding='utf-8') as f:
        expected = json.load(f)
    img = PHOTOS[name]()
    assert img.shape[:0:-1] == tuple(expected['size_wh'])
    assert_same_detections(pretrained.predict([img]), expected)

"""The synthetic shapes datasets: contracts, exact agreement with the pixels, determinism."""

from __future__ import annotations

import numpy
import pytest
from matplotlib.path import Path

from vision.datasets import (
    ShapesBboxDataset,
    ShapesInstanceSegmentationDataset,
    ShapesLabelDataset,
    ShapesSemanticSegmentationDataset,
    shapes_label_names,
    shapes_semantic_segmentation_label_names,
)
from vision.datasets.shapes import _scene
from vision.utils import (
    assert_is_bbox_dataset,
    assert_is_instance_segmentation_dataset,
    assert_is_label_dataset,
    assert_is_semantic_segmentation_dataset,
)

_SIZES = [(64, 64), (40, 90), (90, 33), (1, 1), (5, 200)]


def _grey(img: numpy.ndarray) -> numpy.ndarray:
    return (img[0] == img[1]) & (img[1] == img[2])


def test_label_names():
    assert shapes_label_names == ('circle', 'square', 'triangle', 'star')
    assert shapes_semantic_segmentation_label_names == ('background',) + shapes_label_names


@pytest.mark.parametrize('size', _SIZES)
def test_contracts(size):
    n_fg = len(shapes_label_names)
    assert_is_bbox_dataset(ShapesBboxDataset(8, size, seed=1), n_fg)
    assert_is_instance_segmentation_dataset(ShapesInstanceSegmentationDataset(8, size, 1), n_fg)
    assert_is_semantic_segmentation_dataset(ShapesSemanticSegmentationDataset(8, size, 1),
                                            n_fg + 1)
    assert_is_label_dataset(ShapesLabelDataset(8, size, 1), n_fg)


@pytest.mark.parametrize('size', _SIZES)
def test_annotations_agree_with_pixels(size):
    """The object pixels are exactly the non-grey ones, the masks are disjoint and each is
    one flat colour; the boxes are the boxes of the masks and the label map paints the masks
    with their classes: the three datasets describe one scene."""
    kwargs = dict(length=12, size=size, seed=3, n_shape=(0, 6))
    instances = ShapesInstanceSegmentationDataset(**kwargs)
    boxes = ShapesBboxDataset(**kwargs)
    semantic = ShapesSemanticSegmentationDataset(**kwargs)
    for i in range(len(instances)):
        img, mask, label = instances[i]
        assert img.shape == (3, *instances.size)
        assert numpy.array_equal(img, numpy.rint(img)) and img.min() >= 0 and img.max() <= 255
        assert (mask.sum(axis=0) <= 1).all(), 'masks overlap'
        numpy.testing.assert_array_equal(mask.any(axis=0), ~_grey(img))
        for m in mask:
            assert m.any()
            colors = img[:, m]
            assert (colors == colors[:, :1]).all(), 'a mask is not one flat colour'
        _, bbox, bbox_label = boxes[i]
        numpy.testing.assert_array_equal(bbox_label, label)
        for m, b in zip(mask, bbox):
            ys, xs = numpy.nonzero(m)
            numpy.testing.assert_array_equal(b, [ys.min(), xs.min(), ys.max() + 1, xs.max() + 1])
        semantic_img, label_map = semantic[i]
        numpy.testing.assert_array_equal(semantic_img, img)
        expected = numpy.zeros(instances.size, numpy.int32)
        for m, lbl in zip(mask, label):
            expected[m] = lbl + 1
        numpy.testing.assert_array_equal(label_map, expected)


def test_label_dataset_shows_one_whole_shape():
    dataset = ShapesLabelDataset(length=40, size=48, seed=5)
    labels = []
    for img, label in dataset:
        shape = ~_grey(img)
        assert shape.any()
        colors = img[:, shape]
        assert (colors == colors[:, :1]).all()
        labels.append(int(label))
    assert set(labels) == set(range(len(shapes_label_names)))


def test_deterministic_and_random_access():
    a = ShapesInstanceSegmentationDataset(length=10, size=(32, 48), seed=7)
    b = ShapesInstanceSegmentationDataset(length=10, size=(32, 48), seed=7)
    forward = [a[i] for i in range(10)]
    backward = [b[i] for i in reversed(range(10))][::-1]
    for x, y in zip(forward, backward):
        for u, v in zip(x, y):
            numpy.testing.assert_array_equal(u, v)
    numpy.testing.assert_array_equal(a[-1][0], forward[9][0])
    other = ShapesInstanceSegmentationDataset(length=10, size=(32, 48), seed=8)
    assert not numpy.array_equal(other[0][0], forward[0][0])
    assert not numpy.array_equal(forward[1][0], forward[0][0])
    with pytest.raises(IndexError):
        a[10]


def test_variety():
    dataset = ShapesInstanceSegmentationDataset(length=60, size=64, seed=0)
    labels = numpy.concatenate([label for label in dataset.slice[:, 'label']])
    assert set(labels.tolist()) == set(range(4))
    counts = [len(label) for label in dataset.slice[:, 'label']]
    assert min(counts) >= 1 and max(counts) >= 4
    areas = numpy.concatenate([m.sum(axis=(1, 2)) for m in dataset.slice[:, 'mask']])
    assert areas.min() < 150 < 600 < areas.max()
    colors = {tuple(img[:, m].T[0]) for img, mask, _ in dataset for m in mask}
    assert len(colors) > 50
    backgrounds = [img[0][_grey(img)] for img, _, _ in dataset]
    assert all(b.std() > 3 for b in backgrounds), 'the background is not textured'
    touching = sum(_touch(mask) for _, mask, _ in dataset)
    assert touching > 10, 'shapes do not overlap'


def _touch(mask: numpy.ndarray) -> bool:
    """Whether two masks have 4-neighbouring pixels (one shape in front of another)."""
    grown = mask.copy()
    grown[:, 1:] |= mask[:, :-1]
    grown[:, :-1] |= mask[:, 1:]
    grown[:, :, 1:] |= mask[:, :, :-1]
    grown[:, :, :-1] |= mask[:, :, 1:]
    return bool((grown.sum(axis=0) > 1).any())


def test_annotations_without_rendering(monkeypatch):
    dataset = ShapesBboxDataset(length=5, size=32)

    def fail(*args, **kwargs):
        raise AssertionError('an image was rendered')

    monkeypatch.setattr(_scene, 'make_background', fail)
    monkeypatch.setattr(_scene, 'render', fail)
    assert len(list(dataset.slice[:, ('bbox', 'label')])) == 5


def test_every_example_is_read():
    dataset = ShapesInstanceSegmentationDataset(length=100, size=128, seed=0)
    assert sum(len(example) == 3 for example in dataset) == 100


def test_polygon_contains_against_matplotlib():
    rng = numpy.random.default_rng(0)
    y, x = numpy.mgrid[0:80, 0:80] + 0.5
    points = numpy.stack([x.ravel(), y.ravel()], axis=1)
    for kind in range(1, 4):
        for _ in range(10):
            center = rng.uniform(20, 60, 2)
            radius, angle = rng.uniform(3, 15), rng.uniform(0, 7)
            inner = _scene._STAR_INNER if kind == 3 else None
            n_vertex = {1: 4, 2: 3, 3: 5}[kind]
            vertices = _scene._polygon(n_vertex, radius, angle, center, inner)
            inside = _scene.shape_contains(kind, center, radius, angle, y, x)
            reference = Path(vertices[:, ::-1]).contains_points(points).reshape(80, 80)
            # Points within a hair of an edge may fall either way.
            assert (inside != reference).sum() <= 2
            # The area of the polygon, in units of radius ** 2: 2 for the square, 3 sqrt(3) / 4
            # for the triangle, 5 sin(36 degrees) / 2 for the star of inner radius 1 / 2.
            area = {1: 2, 2: 1.299, 3: 1.469}[kind] * radius ** 2
            assert abs(inside.sum() - area) < 4 * radius + 6


def test_circle():
    y, x = numpy.mgrid[0:20, 0:30] + 0.5
    inside = _scene.shape_contains(0, numpy.array([10.0, 12.0]), 6.0, 0.0, y, x)
    numpy.testing.assert_array_equal(inside, (y - 10) ** 2 + (x - 12) ** 2 <= 36)


@pytest.mark.parametrize('kwargs, error, message', [
    (dict(length=-1), ValueError, 'ShapesBboxDataset: length must be a non-negative integer'),
    (dict(size=(0, 5)), ValueError, r'size must be a positive integer or a pair \(H, W\)'),
    (dict(size='big'), ValueError, 'size must be a positive integer'),
    (dict(seed=-2), ValueError, 'seed must be a non-negative integer'),
    (dict(n_shape=(3, 1)), ValueError, r'n_shape must satisfy 0 <= min <= max, but got '
                                       r'\(3, 1\)'),
    (dict(n_shape=(1.5, 2)), TypeError, r'n_shape must be a pair \(min, max\) of integers'),
    (dict(shape_size=0.2), TypeError, r'shape_size must be a pair \(min, max\) of numbers'),
])
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        ShapesBboxDataset(**kwargs)

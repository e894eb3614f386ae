"""ChainerCV's semantic segmentation benchmarks: each reads the split it is evaluated on from a
directory in its dataset's layout, refuses models of other classes, and scores and summarizes
the label maps with eval_semantic_segmentation."""

from __future__ import annotations

import numpy
import pytest

from framework.iterators import SerialIterator
from vision.datasets import (
    ShapesSemanticSegmentationDataset,
    camvid_label_names,
    voc_semantic_segmentation_label_names,
)
from vision.evaluations import eval_semantic_segmentation
from vision.evaluations.semantic_segmentation_benchmarks import (
    SEMANTIC_SEGMENTATION_BENCHMARKS,
    ShapesVal,
)
from vision.weights import get_weight

_BENCHMARKS = SEMANTIC_SEGMENTATION_BENCHMARKS
# The split each benchmark is evaluated on, as its loader names it.
_SPLITS = {'camvid': 'test', 'cityscapes': 'val', 'ade20k': 'val', 'voc': 'val'}


def test_the_benchmarks_and_their_classes():
    assert {name: (b.title, len(b.label_names)) for name, b in _BENCHMARKS.items()} == {
        'camvid': ('CamVid test', 11), 'cityscapes': ('Cityscapes val (fine)', 19),
        'ade20k': ('ADE20K val', 150), 'voc': ('PASCAL VOC 2012 val', 21),
        'shapes': ('shapes (1000 images of 64x64, seed 1)', 5)}
    assert _BENCHMARKS['camvid'].label_names == camvid_label_names
    assert _BENCHMARKS['voc'].label_names[0] == 'background'


@pytest.mark.parametrize('name', list(_SPLITS))
def test_each_reads_its_split_from_a_directory_in_its_layout(name, segmentation_split,
                                                             tmp_path):
    rng = numpy.random.default_rng(1)
    n_class = len(_BENCHMARKS[name].label_names)
    labels = [rng.integers(-1, n_class, (6, 8)).astype(numpy.int32) for _ in range(2)]
    segmentation_split(name, tmp_path, _SPLITS[name], labels)
    segmentation_split(name, tmp_path, 'train', labels[:1], seed=1)
    dataset = _BENCHMARKS[name].dataset(str(tmp_path))
    assert len(dataset) == 2
    for (img, label), expected in zip(dataset, labels):
        assert img.shape == (3, 6, 8)
        numpy.testing.assert_array_equal(label, expected)
    assert [other for other, b in _BENCHMARKS.items() if b.holds(str(tmp_path))] == [name]


def test_shapes_are_the_validation_seed_drawn_not_read():
    dataset = _BENCHMARKS['shapes'].dataset()
    assert isinstance(dataset, ShapesSemanticSegmentationDataset)
    assert (len(dataset), dataset.size, dataset.seed) == (1000, (64, 64), 1)
    other = ShapesVal(3, size=16, seed=4)
    assert (len(other.dataset()), other.dataset().size, other.title) == (
        3, (16, 16), 'shapes (3 images of 16x16, seed 4)')
    with pytest.raises(ValueError, match="data_dir must be 'auto', but got '/data'"):
        other.dataset('/data')
    assert not other.holds('.')


class _Segmenter:
    """Labels the top half of every image 1, the rest 0; built for ``n_class`` classes."""

    weight_spec = None

    def __init__(self, n_class=None):
        if n_class is not None:
            self.n_class = n_class

    def predict(self, imgs):
        labels = []
        for img in imgs:
            label = numpy.zeros(img.shape[1:], numpy.int32)
            label[:img.shape[1] // 2] = 1
            labels.append(label)
        return labels


def _batches(examples):
    return SerialIterator(examples, 2, repeat=False, shuffle=False)


def test_evaluate_scores_the_label_maps_and_summarizes_each_class():
    img = numpy.zeros((3, 4, 4), numpy.float32)
    gt = numpy.array([[1, 1, 1, 1], [1, 1, 0, 0], [0, 0, 0, 0], [-1, -1, 0, 0]], numpy.int32)
    voc = _BENCHMARKS['voc']
    result = voc.evaluate(_Segmenter(21), _batches([(img, gt)] * 3))
    expected = eval_semantic_segmentation([_Segmenter().predict([img])[0]] * 3, [gt] * 3)
    numpy.testing.assert_array_equal(result['iou'], expected['iou'])
    # class 1: 6 of the 8 predicted pixels, none missed; class 0: 6 of 8 true pixels found.
    numpy.testing.assert_allclose(result['iou'], [6 / 8, 6 / 8])
    summary = voc.summarize(result)
    assert list(summary) == ['mIoU', 'pixel accuracy', 'mean class accuracy',
                             *voc_semantic_segmentation_label_names]
    assert list(summary.values())[:5] == ['75.00 %', '85.71 %', '87.50 %', '75.00 %',
                                          '75.00 %']
    assert set(list(summary.values())[5:]) == {'-'}


def test_models_of_other_classes_are_refused():
    img, gt = numpy.zeros((3, 4, 4), numpy.float32), numpy.zeros((4, 4), numpy.int32)
    camvid, cityscapes = _BENCHMARKS['camvid'], _BENCHMARKS['cityscapes']
    with pytest.raises(ValueError, match=r'^CamVid test \(camvid\) has 11 classes \(Sky, ...\), '
                                         r'but the model segments 19: evaluate a model of 11 '
                                         r'classes$'):
        camvid.evaluate(_Segmenter(19), _batches([(img, gt)]))
    model = _Segmenter(11)
    model.weight_spec = get_weight('segnet_basic', 'camvid')
    with pytest.raises(ValueError, match=r'^Cityscapes val \(fine\) \(cityscapes\) has 19 '
                                         r'classes \(road, ...\), but the weights '
                                         r'segnet_basic/camvid segment 11 others \(Sky, ...\)'):
        cityscapes.evaluate(model, _batches([(img, gt)]))
    assert camvid.evaluate(model, _batches([(img, gt)]))['pixel_accuracy'] == 0.5

"""ChainerCV's detection benchmarks: VOC 2007 test reads the test split with its difficult
objects and scores with the 11-point metric, COCO 2017 val reads areas and crowds, and the
model predicts with its 'evaluate' preset."""

from __future__ import annotations

import json

import numpy
import pytest
from PIL import Image

from framework.iterators import SerialIterator
from vision.datasets import coco_bbox_label_names, voc_bbox_label_names
from vision.evaluations import eval_detection_voc
from vision.evaluations.detection_benchmarks import DETECTION_BENCHMARKS
from vision.weights import get_weight

_VOC = DETECTION_BENCHMARKS['voc07-test']
_COCO = DETECTION_BENCHMARKS['coco2017-val']
_IMG = numpy.zeros((3, 40, 60), numpy.float32)
# Two cats (label 7) and a difficult one; the detections, most confident first: the
# difficult cat, a cat, nothing, the other cat. Precision and recall after each:
# (ignored), (1, 1/2), (1/2, 1/2), (2/3, 1): AP 0.833 all-point, 0.848 with 11 points.
_GT = (numpy.array([[0, 0, 10, 10], [20, 20, 30, 30], [0, 40, 10, 50]], numpy.float32),
       numpy.array([7, 7, 7], numpy.int32), numpy.array([False, False, True]))
_PRED = (numpy.array([[0, 40, 10, 50], [0, 0, 10, 10], [30, 0, 39, 10], [20, 20, 30, 30]],
                     numpy.float32), numpy.array([7, 7, 7, 7], numpy.int32),
         numpy.array([0.95, 0.9, 0.8, 0.7], numpy.float32))


class _Detector:
    """Detects ``_PRED`` with the 'evaluate' preset, nothing with any other."""

    preset = 'visualize'

    def use_preset(self, preset):
        self.preset = preset

    def predict(self, imgs):
        n = len(imgs)
        if self.preset == 'evaluate':
            return [_PRED[0]] * n, [_PRED[1]] * n, [_PRED[2]] * n
        return ([numpy.zeros((0, 4), numpy.float32)] * n, [numpy.zeros(0, numpy.int32)] * n,
                [numpy.zeros(0, numpy.float32)] * n)


def _batches(examples):
    return SerialIterator(examples, 2, repeat=False, shuffle=False)


def test_voc07_test_uses_the_evaluate_preset_difficult_objects_and_11_points():
    result = _VOC.evaluate(_Detector(), _batches([(_IMG, *_GT)] * 3))
    assert result['ap'][7] == pytest.approx((6 + 5 * 2 / 3) / 11)
    assert numpy.isnan(result['ap'][:7]).all() and len(result['ap']) == 8
    all_point = eval_detection_voc([_PRED[0]], [_PRED[1]], [_PRED[2]], [_GT[0]], [_GT[1]],
                                   [_GT[2]])
    assert all_point['ap'][7] == pytest.approx(0.5 + 0.5 * 2 / 3)


def test_voc07_test_summarizes_the_map_and_each_class():
    summary = _VOC.summarize(_VOC.evaluate(_Detector(), _batches([(_IMG, *_GT)])))
    assert list(summary) == ['mAP (VOC2007 11-point, IoU 0.5)', *voc_bbox_label_names]
    assert summary['mAP (VOC2007 11-point, IoU 0.5)'] == summary['cat'] == '84.85 %'
    assert {summary[name] for name in voc_bbox_label_names if name != 'cat'} == {'-'}
    summary = _VOC.summarize({'map': 0.25, 'ap': numpy.array([0.0, 0.5, numpy.nan])})
    assert [summary[name] for name in voc_bbox_label_names[:4]] == ['0.00 %', '50.00 %', '-',
                                                                    '-']


def _voc2007(root, objects: dict[str, list[tuple]], split: str):
    """A VOCdevkit/VOC2007 directory whose ``split`` lists the images of ``objects``, each
    ``(name, (y_min, x_min, y_max, x_max), difficult)``."""
    for folder in ('JPEGImages', 'Annotations', 'ImageSets/Main'):
        (root / folder).mkdir(parents=True, exist_ok=True)
    (root / 'ImageSets' / 'Main' / f'{split}.txt').write_text(''.join(f'{i}\n' for i in objects))
    for id_, boxes in objects.items():
        Image.fromarray(numpy.zeros((40, 60, 3), numpy.uint8)).save(
            root / 'JPEGImages' / f'{id_}.jpg')
        xml = ''.join(f'<object><name>{name}</name><difficult>{int(difficult)}</difficult>'
                      f'<bndbox><xmin>{x0 + 1}</xmin><ymin>{y0 + 1}</ymin><xmax>{x1 + 1}</xmax>'
                      f'<ymax>{y1 + 1}</ymax></bndbox></object>'
                      for name, (y0, x0, y1, x1), difficult in boxes)
        (root / 'Annotations' / f'{id_}.xml').write_text(
            f'<annotation><size><width>60</width><height>40</height></size>{xml}</annotation>')
    return root


def test_voc07_test_reads_the_test_split_with_its_difficult_objects(tmp_path):
    root = _voc2007(tmp_path / 'VOC2007', {'000001': [('cat', (0, 0, 10, 10), False),
                                                      ('dog', (5, 5, 20, 30), True)]}, 'test')
    _voc2007(root, {'000002': [('cat', (0, 0, 10, 10), False)]}, 'trainval')
    dataset = _VOC.dataset(str(root))
    assert len(dataset) == 1
    img, bbox, label, difficult = dataset[0]
    assert img.shape == (3, 40, 60)
    numpy.testing.assert_array_equal(bbox, [[0, 0, 10, 10], [5, 5, 20, 30]])
    numpy.testing.assert_array_equal(label, [7, 11])
    numpy.testing.assert_array_equal(difficult, [False, True])


def test_coco2017_val_reads_areas_and_crowds(tmp_path):
    (tmp_path / 'images' / 'val2017').mkdir(parents=True)
    (tmp_path / 'annotations').mkdir()
    Image.fromarray(numpy.zeros((40, 60, 3), numpy.uint8)).save(
        tmp_path / 'images' / 'val2017' / 'a.jpg')
    annotations = [{'id': 1, 'image_id': 5, 'category_id': 1, 'bbox': [2, 1, 10, 20],
                    'area': 150.0, 'iscrowd': 0},
                   {'id': 2, 'image_id': 5, 'category_id': 2, 'bbox': [0, 0, 30, 30],
                    'area': 600.0, 'iscrowd': 1}]
    (tmp_path / 'annotations' / 'instances_val2017.json').write_text(json.dumps({
        'images': [{'id': 5, 'file_name': 'a.jpg', 'height': 40, 'width': 60}],
        'annotations': annotations,
        'categories': [{'id': 1, 'name': 'person'}, {'id': 2, 'name': 'bicycle'}]}))
    img, bbox, label, area, crowded = _COCO.dataset(str(tmp_path))[0]
    numpy.testing.assert_array_equal(bbox, [[1, 2, 21, 12], [0, 0, 30, 30]])
    numpy.testing.assert_array_equal(label, [0, 1])
    numpy.testing.assert_array_equal(area, [150, 600])
    numpy.testing.assert_array_equal(crowded, [False, True])


def test_coco2017_val_summarizes_coco_ap_by_area_and_class():
    # One large person found exactly, one small person missed: AP 1 for large objects, 0 for
    # small ones, 1/2 over all (recall 1/2, precision 1).
    gt = (numpy.array([[0, 0, 100, 100], [200, 200, 210, 210]], numpy.float32),
          numpy.array([0, 0], numpy.int32), numpy.array([10000., 100.], numpy.float32),
          numpy.array([False, False]))
    pred = ([gt[0][:1]], [gt[1][:1]], [numpy.array([0.9], numpy.float32)])
    summary = _COCO.summarize(_COCO.score(pred, tuple([x] for x in gt)))
    assert list(summary)[:4] == [f'mmAP ({area}, IoU 0.50:0.95)'
                                 for area in ('all', 'large', 'medium', 'small')]
    assert list(summary.values())[:4] == ['50.50 %', '100.00 %', '-', '0.00 %']
    assert list(summary)[4:] == list(coco_bbox_label_names)
    assert summary['person'] == '50.50 %' and summary['bicycle'] == '-'


def test_weights_of_other_classes_are_refused():
    detector = _Detector()
    detector.weight_spec = get_weight('ssd300', 'voc0712')
    with pytest.raises(ValueError, match=r'MS COCO 2017 val \(coco2017-val\) has 80 classes '
                                         r'\(person, ...\), but the weights ssd300/voc0712 '
                                         r'detect 20 others \(aeroplane, ...\)'):
        _COCO.evaluate(detector, _batches([(_IMG, *_GT)]))
    assert detector.preset == 'visualize'
    assert _VOC.evaluate(detector, _batches([(_IMG, *_GT)]))['map'] > 0

"""ChainerCV's instance segmentation benchmarks: the 'evaluate' preset, SBD's 11-point mask mAP,
COCO's mask lines (AP, AP50, AP75, by size), shapes' area under the curve, the directories each
recognises, and weights made for other classes refused."""

from __future__ import annotations

import numpy
import pytest

from framework.iterators import SerialIterator
from vision.datasets import coco_instance_segmentation_label_names
from vision.evaluations.instance_segmentation_benchmarks import (
    INSTANCE_SEGMENTATION_BENCHMARKS,
    VOC2012,
    ShapesVal,
)
from vision.weights import get_weight

_SBD = INSTANCE_SEGMENTATION_BENCHMARKS['sbd']
_COCO = INSTANCE_SEGMENTATION_BENCHMARKS['coco2017-val']
_IMG = numpy.zeros((3, 20, 30), numpy.float32)


def _masks(*boxes):
    mask = numpy.zeros((len(boxes), 20, 30), bool)
    for m, (y0, x0, y1, x1) in zip(mask, boxes):
        m[y0:y1, x0:x1] = True
    return mask


# Two cats (label 7); the objects, most confident first: a cat, nothing, the other cat.
# Precision and recall after each: (1, 1/2), (1/2, 1/2), (2/3, 1).
_GT = (_masks((0, 0, 10, 10), (10, 20, 20, 30)), numpy.array([7, 7], numpy.int32))
_PRED = (_masks((0, 0, 10, 10), (15, 0, 20, 10), (10, 20, 20, 30)),
         numpy.array([7, 7, 7], numpy.int32), numpy.array([0.9, 0.8, 0.7], numpy.float32))


class _Segmenter:
    """Segments ``_PRED`` with the 'evaluate' preset, nothing with any other."""

    preset = 'visualize'

    def use_preset(self, preset):
        self.preset = preset

    def predict(self, imgs):
        n = len(imgs)
        if self.preset == 'evaluate':
            return [_PRED[0]] * n, [_PRED[1]] * n, [_PRED[2]] * n
        return ([numpy.zeros((0, 20, 30), bool)] * n, [numpy.zeros(0, numpy.int32)] * n,
                [numpy.zeros(0, numpy.float32)] * n)


def _batches(examples):
    return SerialIterator(examples, 2, repeat=False, shuffle=False)


def test_sbd_uses_the_evaluate_preset_and_11_points():
    summary = _SBD.summarize(_SBD.evaluate(_Segmenter(), _batches([(_IMG, *_GT)] * 3)))
    assert list(summary)[:1] == ['mAP (VOC2007 11-point, mask IoU 0.5)']
    assert summary['mAP (VOC2007 11-point, mask IoU 0.5)'] == summary['cat'] == \
        f'{100 * (6 + 5 * 2 / 3) / 11:.2f} %'
    assert summary['dog'] == '-' and len(summary) == 21


def test_shapes_uses_the_area_under_the_curve():
    shapes = ShapesVal()
    result = shapes.score([[_PRED[0]], [_PRED[1]], [_PRED[2]]], [[_GT[0]], [_GT[1]]])
    assert result['ap'][7] == pytest.approx(0.5 + 0.5 * 2 / 3)
    assert shapes.title == 'shapes (1000 images of 128x128, seed 1)'
    with pytest.raises(ValueError, match='the shapes are drawn, not read'):
        shapes.dataset('/data')


def test_coco_reports_chainercvs_lines():
    result = _COCO.evaluate(_Segmenter(), _batches([(_IMG, *_GT, numpy.array([100.0, 100.0]),
                                                     numpy.zeros(2, bool))]))
    summary = _COCO.summarize(result)
    assert list(summary)[:6] == [
        'mask mmAP (all, IoU 0.50:0.95)', 'mask mAP (all, IoU 0.50)', 'mask mAP (all, IoU 0.75)',
        'mask mmAP (large, IoU 0.50:0.95)', 'mask mmAP (medium, IoU 0.50:0.95)',
        'mask mmAP (small, IoU 0.50:0.95)']
    assert list(summary)[6:] == list(coco_instance_segmentation_label_names)
    # Exact masks: COCO's 101-point AP of the curve above at every IoU.
    label_7 = coco_instance_segmentation_label_names[7]
    assert summary['mask mAP (all, IoU 0.50)'] == summary[label_7] == '83.50 %'
    assert summary['mask mmAP (small, IoU 0.50:0.95)'] == summary[label_7]
    assert summary['mask mmAP (large, IoU 0.50:0.95)'] == '-'


def test_the_directories_are_told_apart(tmp_path):
    (tmp_path / 'coco' / 'annotations').mkdir(parents=True)
    (tmp_path / 'coco' / 'annotations' / 'instances_val2017.json').write_text('{}')
    (tmp_path / 'sbd').mkdir()
    (tmp_path / 'sbd' / 'val_voc2012.txt').write_text('')
    (tmp_path / 'voc' / 'SegmentationObject').mkdir(parents=True)
    held = {name: [b.name for b in INSTANCE_SEGMENTATION_BENCHMARKS.values()
                   if b.holds(str(tmp_path / name))] for name in ('coco', 'sbd', 'voc')}
    assert held == {'coco': ['coco2017-val'], 'sbd': ['sbd'], 'voc': ['voc']}
    assert VOC2012('train').title == 'PASCAL VOC 2012 train'


def test_weights_made_for_other_classes_are_refused():
    class Model(_Segmenter):
        weight_spec = get_weight('mask_rcnn_fpn_resnet50', 'coco')

    with pytest.raises(ValueError, match=r'SBD val \(sbd\) has 20 classes \(aeroplane, \.\.\.\), '
                                         r'but the weights .* segment 80 others'):
        _SBD.prepare(Model())
    _COCO.prepare(Model())

"""ChainerCV's evaluation of detectors on a benchmark (its ``examples/detection/
eval_detection.py``): PASCAL VOC 2007 test and MS COCO 2017 val, each with its data, its metric
and the numbers it reports. The model predicts with its ``'evaluate'`` preset (many boxes, a low
score threshold). ``scripts/eval_detection.py`` and ``vision evaluate`` both run it.

>>> benchmark = DETECTION_BENCHMARKS['voc07-test']
>>> dataset = benchmark.dataset()  # downloaded once into $VISION_HOME/datasets
>>> iterator = SerialIterator(dataset, 32, repeat=False, shuffle=False)
>>> result = benchmark.evaluate(SSD300(pretrained_model='voc0712'), iterator)
>>> benchmark.summarize(result)['mAP (VOC2007 11-point, IoU 0.5)']
'77.80 %'
"""

from __future__ import annotations

from vision.datasets import (
    COCOBboxDataset,
    VOCBboxDataset,
    coco_bbox_label_names,
    voc_bbox_label_names,
)
from vision.evaluations.benchmark import Benchmark, percent
from vision.evaluations.eval_detection_coco import eval_detection_coco
from vision.evaluations.eval_detection_voc import eval_detection_voc


class DetectionBenchmark(Benchmark):
    """A benchmark of detectors: the model predicts ``bboxes, labels, scores`` (the points of
    a keypoint detector are not scored) with its ``'evaluate'`` preset; the subclasses fill in
    its data, its metric and its summary (see :class:`~vision.evaluations.benchmark.Benchmark`).

    Attributes:
        name (str): its name on the command line (``'voc07-test'``).
        title (str): what it is (``'PASCAL VOC 2007 test'``).
        label_names (tuple of str): its classes; a model for it has ``n_fg_class`` of their
            number.
    """

    verb = 'detect'
    n_pred_values = 3


class VOC07Test(DetectionBenchmark):
    """PASCAL VOC 2007 test (4,952 images, 20 classes): the average precision of each class
    at IoU 0.5 with VOC 2007's 11-point metric, difficult objects neither counted nor
    penalised, and their mean (mAP)."""

    name = 'voc07-test'
    title = 'PASCAL VOC 2007 test'
    label_names = tuple(voc_bbox_label_names)
    map_name = 'mAP (VOC2007 11-point, IoU 0.5)'

    def dataset(self, data_dir: str = 'auto') -> VOCBboxDataset:
        """``(img, bbox, label, difficult)`` of VOC 2007 test, difficult objects included;
        ``data_dir`` is a ``VOCdevkit/VOC2007`` directory, or ``'auto'``."""
        return VOCBboxDataset(data_dir, split='test', year='2007', use_difficult=True,
                              return_difficult=True)

    def score(self, pred_values, gt_values) -> dict:
        """:func:`~vision.evaluations.eval_detection_voc` with ``use_07_metric=True``."""
        return eval_detection_voc(*pred_values, *gt_values, use_07_metric=True)

    def summarize(self, result: dict) -> dict[str, str]:
        return {self.map_name: percent(result['map']), **self._per_class(result['ap'])}


class COCO2017Val(DetectionBenchmark):
    """MS COCO 2017 val (5,000 images, 80 classes): COCO's average precision over IoU 0.5 to
    0.95 (at most 100 detections an image), of all objects and of the small, medium and large
    ones, crowds matched without counting, and each class's."""

    name = 'coco2017-val'
    title = 'MS COCO 2017 val'
    label_names = tuple(coco_bbox_label_names)
    _AP = 'ap/iou=0.50:0.95/area={}/max_dets=100'

    def dataset(self, data_dir: str = 'auto') -> COCOBboxDataset:
        """``(img, bbox, label, area, crowded)`` of COCO 2017 val; ``data_dir`` is a COCO
        directory (``images/val2017``, ``annotations/instances_val2017.json``), or
        ``'auto'``."""
        return COCOBboxDataset(data_dir, split='val', year='2017', use_crowded=True,
                               return_area=True, return_crowded=True)

    def score(self, pred_values, gt_values) -> dict:
        """:func:`~vision.evaluations.eval_detection_coco`."""
        return eval_detection_coco(*pred_values, *gt_values)

    def summarize(self, result: dict) -> dict[str, str]:
        means = {f'mmAP ({area}, IoU 0.50:0.95)': percent(result['m' + self._AP.format(area)])
                 for area in ('all', 'large', 'medium', 'small')}
        return {**means, **self._per_class(result[self._AP.format('all')])}


#: The benchmarks by name.
DETECTION_BENCHMARKS: dict[str, DetectionBenchmark] = {
    benchmark.name: benchmark for benchmark in (VOC07Test(), COCO2017Val())}

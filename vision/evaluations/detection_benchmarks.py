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

import math
from collections.abc import Callable, Iterable, Sequence

import numpy

from vision.datasets import (
    COCOBboxDataset,
    VOCBboxDataset,
    coco_bbox_label_names,
    voc_bbox_label_names,
)
from vision.evaluations.eval_detection_coco import eval_detection_coco
from vision.evaluations.eval_detection_voc import eval_detection_voc
from vision.utils.iterator import apply_to_iterator


class DetectionBenchmark:
    """A benchmark of detectors; the subclasses fill in its data, its metric and its summary.

    Attributes:
        name (str): its name on the command line (``'voc07-test'``).
        title (str): what it is (``'PASCAL VOC 2007 test'``).
        label_names (tuple of str): its classes; a model for it has ``n_fg_class`` of their
            number.
    """

    name: str
    title: str
    label_names: tuple[str, ...]

    def dataset(self, data_dir: str = 'auto'):
        """The examples of the benchmark: ``(img, bbox, label, ...)`` with the ground truth
        the metric needs.

        Args:
            data_dir (str): the dataset's directory, or ``'auto'`` to download it (once, into
                ``$VISION_HOME/datasets``) with the dataset's loader.
        """
        raise NotImplementedError

    def score(self, pred_values: Sequence[Iterable], gt_values: Sequence[Iterable]) -> dict:
        """The benchmark's metric of predictions against the ground truth.

        Args:
            pred_values (sequence of iterables): ``pred_bboxes`` (float32 ``(R, 4)`` an
                image), ``pred_labels`` (int32 ``(R,)``) and ``pred_scores`` (float32
                ``(R,)``).
            gt_values (sequence of iterables): what the examples of :meth:`dataset` hold
                after the image, image by image (``gt_bboxes``, ``gt_labels`` and more).

        Returns:
            dict: the result of the metric's function.
        """
        raise NotImplementedError

    def summarize(self, result: dict) -> dict[str, str]:
        """The numbers of a result that the benchmark reports.

        Args:
            result (dict): a result of :meth:`score`.

        Returns:
            dict: text by name (``'77.80 %'``, ``'-'`` where there is nothing to score):
            first the means over the classes, then the AP of each of :attr:`label_names`.
        """
        raise NotImplementedError

    def evaluate(self, model, batches: Iterable[Sequence[tuple]],
                 hook: Callable | None = None) -> dict:
        """Predicts every example with the model's ``'evaluate'`` preset and scores the
        predictions.

        Args:
            model: a detector: ``model.predict(imgs)`` returns ``bboxes, labels, scores``; its
                ``use_preset('evaluate')``, when it has one, is called first.
            batches (iterable of lists): the examples of :meth:`dataset` in batches (an
                iterator of :mod:`framework.iterators` that does not repeat).
            hook (callable or None): called after each batch, as the ``hook`` of
                :func:`~vision.utils.apply_to_iterator` (a
                :class:`~vision.utils.ProgressHook`).

        Returns:
            dict: the result of :meth:`score`.

        Raises:
            ValueError: the model's weights (its ``weight_spec``) detect other classes than
                the benchmark's.
        """
        spec = getattr(model, 'weight_spec', None)
        if spec is not None and spec.label_names not in (None, self.label_names):
            raise ValueError(f'{self.title} ({self.name}) has {len(self.label_names)} classes '
                             f'({self.label_names[0]}, ...), but the weights '
                             f'{spec.describe()} detect {len(spec.label_names)} others '
                             f'({spec.label_names[0]}, ...): evaluate weights made for them')
        if hasattr(model, 'use_preset'):
            model.use_preset('evaluate')
        _, pred_values, gt_values = apply_to_iterator(model.predict, batches, hook=hook)
        return self.score(pred_values[:3], gt_values)  # not the points of a keypoint detector

    def _per_class(self, ap: numpy.ndarray) -> dict[str, str]:
        """Each class's AP as text (``'-'`` past the end of ``ap``: labels above the largest
        one predicted or in the ground truth)."""
        return {name: _percent(ap[i] if i < len(ap) else math.nan)
                for i, name in enumerate(self.label_names)}


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
        return {self.map_name: _percent(result['map']), **self._per_class(result['ap'])}


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
        means = {f'mmAP ({area}, IoU 0.50:0.95)': _percent(result['m' + self._AP.format(area)])
                 for area in ('all', 'large', 'medium', 'small')}
        return {**means, **self._per_class(result[self._AP.format('all')])}


def _percent(value: float) -> str:
    """``'77.80 %'``; ``'-'`` for NaN: no object nor detection to score."""
    return '-' if math.isnan(value) else f'{100 * value:.2f} %'


#: The benchmarks by name.
DETECTION_BENCHMARKS: dict[str, DetectionBenchmark] = {
    benchmark.name: benchmark for benchmark in (VOC07Test(), COCO2017Val())}

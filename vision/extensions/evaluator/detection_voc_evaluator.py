"""DetectionVOCEvaluator: the PASCAL VOC average precisions of a detector, as an extension."""

from __future__ import annotations

from collections.abc import Iterable

from vision.evaluations import eval_detection_voc
from vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, per_class


class DetectionVOCEvaluator(PredictionEvaluator):
    """An extension that evaluates a detection model by the PASCAL VOC metric.

    Each evaluation (once per epoch by default) runs ``target.predict`` over the iterator and
    scores the boxes with :func:`~vision.evaluations.eval_detection_voc`. It reports, with
    the target as the observer (``'validation/main/map'`` in a trainer):

    * ``'map'``: the mean of the average precisions of the classes that are not NaN.
    * ``'ap/<label_names[l]>'``, only if ``label_names`` is given: the average precision of
      class :math:`l`, e.g. ``'ap/aeroplane'``. NaN for a class in neither the ground truth
      nor the predictions (mAP is then computed without it).

    Args:
        iterator (~framework.dataset.Iterator): The validation set, one pass
            (``repeat=False``). Each sample is ``(img, bbox, label)`` or
            ``(img, bbox, label, difficult)``: an image ``(3, H, W)``, float32 boxes
            ``(R, 4)``, int32 labels ``(R,)`` and bool flags ``(R,)``; difficult objects are
            ignored. None on a worker other than rank 0 of ``comm``.
        target (~framework.Link): A detection link: ``target.predict(imgs)`` returns
            ``bboxes, labels, scores``.
        use_07_metric (bool): Whether to use the 11-point metric of PASCAL VOC 2007.
        label_names (iterable of str): The names of the classes, indexed by label. If given,
            the average precision of each class is reported too.
        comm: A communicator with ChainerMN's interface, or None. If given, every worker
            runs the evaluation: rank 0 splits each batch among them, gathers the predictions
            and reports; the other ranks report nothing.
    """

    outputs = ('bboxes', 'labels', 'scores')
    samples = {2: 'img, bbox, label', 3: 'img, bbox, label, difficult'}

    def __init__(self, iterator, target, use_07_metric: bool = False,
                 label_names: Iterable[str] | None = None, comm=None):
        super().__init__(iterator, target, label_names, comm)
        self.use_07_metric = use_07_metric

    def score(self, out_values, rest_values) -> dict:
        pred_bboxes, pred_labels, pred_scores = out_values
        gt_bboxes, gt_labels, *gt_difficults = rest_values
        result = eval_detection_voc(
            pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels,
            gt_difficults[0] if gt_difficults else None, use_07_metric=self.use_07_metric)
        values = {'map': result['map']}
        if self.label_names is not None:
            values.update(per_class('ap', result['ap'], self.label_names))
        return values

"""DetectionCOCOEvaluator: the MS COCO precisions and recalls of a detector, as an extension."""

from __future__ import annotations

from vision.evaluations import eval_detection_coco
from vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, coco_report


class DetectionCOCOEvaluator(PredictionEvaluator):
    """An extension that evaluates a detection model by the MS COCO metric.

    Each evaluation (once per epoch by default) runs ``target.predict`` over the iterator and
    scores the boxes with :func:`~vision.evaluations.eval_detection_coco`. It reports, with
    the target as the observer (``'validation/main/map/iou=0.50:0.95/area=all/max_dets=100'``
    in a trainer), the means over the classes (NaN classes skipped):

    * ``'map/iou=0.50:0.95/area=all/max_dets=100'``, ``'map/iou=0.50/area=all/max_dets=100'``,
      ``'map/iou=0.75/area=all/max_dets=100'``: mean average precision.
    * ``'mar/iou=0.50:0.95/area=all/max_dets=1'`` (and ``=10``, ``=100``): mean average
      recall.
    * Only if the samples hold areas: ``'map/iou=0.50:0.95/area=small/max_dets=100'`` (and
      ``medium``, ``large``) and the same three ``'mar/...'``.

    and, only if ``label_names`` is given, the value of each class under the key without the
    ``m`` followed by the class name, e.g. ``'ap/iou=0.50:0.95/area=all/max_dets=100/person'``;
    NaN for a class in neither the ground truth nor the predictions.

    Args:
        iterator (~framework.dataset.Iterator): The validation set, one pass
            (``repeat=False``). Each sample is ``(img, bbox, label)`` or
            ``(img, bbox, label, area, crowded)``: an image ``(3, H, W)``, float32 boxes
            ``(R, 4)``, int32 labels ``(R,)``, float32 areas ``(R,)`` and bool flags
            ``(R,)``. None on a worker other than rank 0 of ``comm``.
        target (~framework.Link): A detection link: ``target.predict(imgs)`` returns
            ``bboxes, labels, scores``.
        label_names (iterable of str): The names of the classes, indexed by label. If given,
            the precisions and recalls of each class are reported too.
        comm: A communicator with ChainerMN's interface, or None. If given, every worker
            runs the evaluation: rank 0 splits each batch among them, gathers the predictions
            and reports; the other ranks report nothing.
    """

    outputs = ('bboxes', 'labels', 'scores')
    samples = {2: 'img, bbox, label', 4: 'img, bbox, label, area, crowded'}

    def score(self, out_values, rest_values) -> dict:
        # Samples without areas and crowded flags leave both at their default, None.
        result = eval_detection_coco(*out_values, *rest_values)
        return coco_report(result, self.label_names)

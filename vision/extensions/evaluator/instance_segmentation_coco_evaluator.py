"""InstanceSegmentationCOCOEvaluator: the MS COCO precisions and recalls of an instance
segmentation model, as an extension."""

from __future__ import annotations

from vision.evaluations import eval_instance_segmentation_coco
from vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, coco_report


class InstanceSegmentationCOCOEvaluator(PredictionEvaluator):
    """An extension that evaluates an instance segmentation model by the MS COCO metric.

    Each evaluation (once per epoch by default) runs ``target.predict`` over the iterator and
    scores the masks with :func:`~vision.evaluations.eval_instance_segmentation_coco`. It
    reports the keys of :class:`~vision.extensions.DetectionCOCOEvaluator`
    (``'map/iou=0.50:0.95/area=all/max_dets=100'``..., and the per-class
    ``'ap/.../<label_names[l]>'``, ``'ar/.../<label_names[l]>'`` if ``label_names`` is
    given), with the same meaning for masks; the area ranges only if the samples hold areas.

    Args:
        iterator (~framework.dataset.Iterator): The validation set, one pass
            (``repeat=False``). Each sample is ``(img, mask, label)`` or
            ``(img, mask, label, area, crowded)``: an image ``(3, H, W)``, bool masks
            ``(R, H, W)``, int32 labels ``(R,)``, float32 areas ``(R,)`` and bool flags
            ``(R,)``. None on a worker other than rank 0 of ``comm``.
        target (~framework.Link): An instance segmentation link: ``target.predict(imgs)``
            returns ``masks, labels, scores``.
        label_names (iterable of str): The names of the classes, indexed by label. If given,
            the precisions and recalls of each class are reported too.
        comm: A communicator with ChainerMN's interface, or None. If given, every worker
            runs the evaluation: rank 0 splits each batch among them, gathers the predictions
            and reports; the other ranks report nothing.
    """

    outputs = ('masks', 'labels', 'scores')
    samples = {2: 'img, mask, label', 4: 'img, mask, label, area, crowded'}

    def score(self, out_values, rest_values) -> dict:
        # Samples without areas and crowded flags leave both at their default, None.
        result = eval_instance_segmentation_coco(*out_values, *rest_values)
        return coco_report(result, self.label_names)

"""InstanceSegmentationVOCEvaluator: the PASCAL VOC average precisions of an instance
segmentation model, as an extension."""

from __future__ import annotations

from collections.abc import Iterable

from vision.evaluations import eval_instance_segmentation_voc
from vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, per_class


class InstanceSegmentationVOCEvaluator(PredictionEvaluator):
    """An extension that evaluates an instance segmentation model by the PASCAL VOC metric.

    Each evaluation (once per epoch by default) runs ``target.predict`` over the iterator and
    scores the masks with :func:`~vision.evaluations.eval_instance_segmentation_voc`. It
    reports, with the target as the observer (``'validation/main/map'`` in a trainer):

    * ``'map'``: the mean of the average precisions of the classes that are not NaN.
    * ``'ap/<label_names[l]>'``, only if ``label_names`` is given: the average precision of
      class :math:`l`. NaN for a class in neither the ground truth nor the predictions.

    Args:
        iterator (~framework.dataset.Iterator): The validation set, one pass
            (``repeat=False``). Each sample is ``(img, mask, label)``: an image
            ``(3, H, W)``, bool masks ``(R, H, W)`` and int32 labels ``(R,)``. None on a
            worker other than rank 0 of ``comm``.
        target (~framework.Link): An instance segmentation link: ``target.predict(imgs)``
            returns ``masks, labels, scores``.
        iou_thresh (float): A predicted mask is correct if its IoU with a ground truth mask
            is at least this value.
        use_07_metric (bool): Whether to use the 11-point metric of PASCAL VOC 2007.
        label_names (iterable of str): The names of the classes, indexed by label. If given,
            the average precision of each class is reported too.
        comm: A communicator with ChainerMN's interface, or None. If given, every worker
            runs the evaluation: rank 0 splits each batch among them, gathers the predictions
            and reports; the other ranks report nothing.
    """

    outputs = ('masks', 'labels', 'scores')
    samples = {2: 'img, mask, label'}

    def __init__(self, iterator, target, iou_thresh: float = 0.5, use_07_metric: bool = False,
                 label_names: Iterable[str] | None = None, comm=None):
        super().__init__(iterator, target, label_names, comm)
        self.iou_thresh = iou_thresh
        self.use_07_metric = use_07_metric

    def score(self, out_values, rest_values) -> dict:
        result = eval_instance_segmentation_voc(
            *out_values, *rest_values, iou_thresh=self.iou_thresh,
            use_07_metric=self.use_07_metric)
        values = {'map': result['map']}
        if self.label_names is not None:
            values.update(per_class('ap', result['ap'], self.label_names))
        return values

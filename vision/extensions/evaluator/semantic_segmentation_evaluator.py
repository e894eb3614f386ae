"""SemanticSegmentationEvaluator: the IoUs and accuracies of a semantic segmentation model, as
an extension."""

from __future__ import annotations

from vision.evaluations import eval_semantic_segmentation
from vision.extensions.evaluator._prediction_evaluator import PredictionEvaluator, per_class


class SemanticSegmentationEvaluator(PredictionEvaluator):
    """An extension that evaluates a semantic segmentation model.

    Each evaluation (once per epoch by default) runs ``target.predict`` over the iterator and
    scores the label maps with :func:`~vision.evaluations.eval_semantic_segmentation`. It
    reports, with the target as the observer (``'validation/main/miou'`` in a trainer):

    * ``'miou'``: the mean of the IoUs of the classes that are not NaN.
    * ``'pixel_accuracy'``: the fraction of the pixels (not ignored) labelled correctly.
    * ``'mean_class_accuracy'``: the mean of the class accuracies that are not NaN.
    * ``'iou/<label_names[l]>'`` and ``'class_accuracy/<label_names[l]>'``, only if
      ``label_names`` is given: the IoU and the accuracy of class :math:`l`, e.g.
      ``'iou/Sky'``. NaN for a class absent from the ground truth.

    Args:
        iterator (~framework.dataset.Iterator): The validation set, one pass
            (``repeat=False``). Each sample is ``(img, label)``: an image ``(3, H, W)`` and an
            int32 label map ``(H, W)``, :math:`-1` for ignored pixels. None on a worker
            other than rank 0 of ``comm``.
        target (~framework.Link): A semantic segmentation link: ``target.predict(imgs)``
            returns ``labels``.
        label_names (iterable of str): The names of the classes, indexed by label. If given,
            the IoU and accuracy of each class are reported too.
        comm: A communicator with ChainerMN's interface, or None. If given, every worker
            runs the evaluation: rank 0 splits each batch among them, gathers the predictions
            and reports; the other ranks report nothing.
    """

    outputs = ('labels',)
    samples = {1: 'img, label'}

    def score(self, out_values, rest_values) -> dict:
        result = eval_semantic_segmentation(*out_values, *rest_values)
        values = {key: result[key] for key in ('miou', 'pixel_accuracy', 'mean_class_accuracy')}
        if self.label_names is not None:
            values.update(per_class('iou', result['iou'], self.label_names))
            values.update(per_class('class_accuracy', result['class_accuracy'],
                                    self.label_names))
        return values

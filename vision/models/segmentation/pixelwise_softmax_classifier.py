"""PixelwiseSoftmaxClassifier: a semantic segmentation model with its training loss (ChainerCV's
``chainercv.links.PixelwiseSoftmaxClassifier``)."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import backend, reporter
from framework.links.link import Chain, Link
from framework.variable import Variable
from vision.models.segmentation.label_maps import check_label_maps


class PixelwiseSoftmaxClassifier(Chain):
    """Trains a semantic segmentation model: the softmax cross entropy of its scores against
    the label maps, pixel by pixel.

    Called with a batch of images and their label maps (``loss = model(x, t)``), it computes
    the scores ``y = predictor(x)`` and their loss, reports ``loss`` (``'main/loss'`` in a
    :class:`~framework.training.Trainer`) and returns it.

    Args:
        predictor (Link): the model; ``predictor(x)`` gives float ``(B, n_class, H, W)``
            scores for ``(B, C, H, W)`` images.
        ignore_label (int): the label of the pixels left out of the loss.
        class_weight (array-like or None): ``(n_class,)``, each class's factor of the loss of
            its pixels (e.g. the inverse of its frequency, to balance the classes); None for
            ones. Kept as the float32 persistent ``class_weight``, which moves with the link.

    Attributes:
        y (Variable): the scores of the last call.
        loss (Variable): the loss of the last call.
    """

    def __init__(self, predictor: Link, ignore_label: int = -1, class_weight=None):
        super().__init__()
        with self.init_scope():
            self.predictor = predictor
        self.ignore_label = ignore_label
        if class_weight is not None:
            class_weight = numpy.asarray(backend.to_cpu(class_weight), numpy.float32)
            if class_weight.ndim != 1:
                raise ValueError('PixelwiseSoftmaxClassifier: class_weight must have shape '
                                 f'(n_class,), but got shape {class_weight.shape}')
        self.add_persistent('class_weight', class_weight)
        self.y: Variable | None = None
        self.loss: Variable | None = None

    def forward(self, x, t) -> Variable:
        """The loss of the predictor's scores for ``x`` against the label maps ``t``.

        Args:
            x (Variable or array): float32 ``(B, C, H, W)``, the images as the predictor takes
                them.
            t (array): int32 ``(B, H, W)``, the label maps: ``0 .. n_class - 1`` or
                ``ignore_label``.

        Returns:
            Variable: the loss, float32, 0-dimensional: the mean over the pixels not ignored.

        Raises:
            ValueError: a label map holds a value that is neither a class nor
                ``ignore_label`` (the message names the sample), or ``class_weight`` is not of
                length ``n_class``.
        """
        self.y = self.predictor(x)
        check_label_maps('PixelwiseSoftmaxClassifier', t, self.y.shape[1], self.ignore_label)
        self.loss = F.softmax_cross_entropy(self.y, t, class_weight=self.class_weight,
                                            ignore_label=self.ignore_label)
        reporter.report({'loss': self.loss}, self)
        return self.loss


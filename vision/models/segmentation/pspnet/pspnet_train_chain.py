"""PSPNetTrainChain: PSPNet with the auxiliary branch and the loss its authors train with
(ChainerCV's ``TrainChain`` of ``examples/pspnet/train_multi.py``)."""

from __future__ import annotations

import framework.functions as F
from framework import initializers, reporter
from framework.links import Conv2DBNActiv, Convolution2D
from framework.links.link import Chain
from framework.variable import Variable
from vision.models.segmentation.label_maps import check_label_maps
from vision.models.segmentation.pspnet.pspnet import PSPNet

# The weight of the auxiliary loss and the dropout of both heads, the authors'.
_AUX_WEIGHT = 0.4
_DROPOUT = 0.1


class PSPNetTrainChain(Chain):
    """Trains a :class:`PSPNet`: the softmax cross entropy of its scores against the label
    maps, plus ``0.4`` times that of an auxiliary head on the extractor's ``res4``
    (``aux_conv1``: 3x3, batch normalization, ReLU, to half ``res4``'s channels; ``aux_conv2``:
    3x3 to the classes), both heads with a dropout of 0.1 after their first convolution, both
    scores resized to the input (bilinear).

    Called with a batch and its label maps (``loss = chain(x, t)``), it reports ``loss``,
    ``main_loss`` and ``aux_loss`` (``'main/loss'``... in a
    :class:`~framework.training.Trainer`) and returns the loss.

    Args:
        model (PSPNet): the model; registered as the child ``model``.
        ignore_label (int): the label of the pixels left out of the loss.
        initialW (callable or None): the initializer of the auxiliary head (default: He's
            normal).
    """

    def __init__(self, model: PSPNet, ignore_label: int = -1, initialW=None):
        super().__init__()
        if initialW is None:
            initialW = initializers.HeNormal()
        res4_channels = model.extractor.channels // 2
        with self.init_scope():
            self.model = model
            self.aux_conv1 = Conv2DBNActiv(res4_channels, res4_channels // 2, 3, 1, 1,
                                           initialW=initialW)
            self.aux_conv2 = Convolution2D(res4_channels // 2, model.n_class, 3, 1, 1,
                                           initialW=initialW)
        self.ignore_label = ignore_label

    def forward(self, x, t) -> Variable:
        """The loss of a batch.

        Args:
            x (Variable or array): float32 ``(B, 3, H, W)``, images with the model's mean
                subtracted.
            t (array): int32 ``(B, H, W)``, the label maps: ``0 .. n_class - 1`` or
                ``ignore_label``.

        Returns:
            Variable: float32, 0-dimensional: ``main_loss + 0.4 * aux_loss``.

        Raises:
            ValueError: a label map holds a value that is neither a class nor
                ``ignore_label`` (the message names the sample).
        """
        model = self.model
        check_label_maps('PSPNetTrainChain', t, model.n_class, self.ignore_label)
        size = x.shape[2:]
        res4, res5 = model.extractor(x)
        aux = self.aux_conv2(F.dropout(self.aux_conv1(res4), _DROPOUT))
        main = model.head_conv2(F.dropout(model.head_conv1(model.ppm(res5)), _DROPOUT))
        main_loss, aux_loss = (
            F.softmax_cross_entropy(F.resize_images(h, size), t, ignore_label=self.ignore_label)
            for h in (main, aux))
        loss = main_loss + _AUX_WEIGHT * aux_loss
        reporter.report({'loss': loss, 'main_loss': main_loss, 'aux_loss': aux_loss}, self)
        return loss

"""The mask head of Mask R-CNN on a feature pyramid (ChainerCV's ``fpn.MaskHead``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

import framework.functions as F
from framework import backend, initializers
from framework.links import Conv2DActiv, Convolution2D, Deconvolution2D
from framework.variable import as_array
from vision.models.detection.fpn.pyramid_roi_head import PyramidRoIHead
from vision.models.instance.mask_rcnn.mask_coding import paste_segm_torchvision, segm_to_mask


class MaskHead(PyramidRoIHead):
    """Predicts, for each region of a feature pyramid and each class, the logits of a
    ``segm_size x segm_size`` grid over the region.

    Each region is RoI-aligned to 14x14 on its level (:class:`PyramidRoIHead`, the levels
    chosen as for the box head), then goes through ``conv1`` to ``conv4`` (3x3 convolutions
    with ReLU), ``conv5`` (a 2x2 deconvolution of stride 2, with ReLU, to 28x28) and ``seg``
    (a 1x1 convolution, one logit per class and cell). The layers and their names are
    ChainerCV's, whose weights load as they are.

    Args:
        n_class (int): the number of classes, background included.
        scales (sequence of float): the size of each level relative to the input.
        channels (int): the channels of the levels and of the hidden layers (ChainerCV's 256).

    Attributes:
        segm_size (int): the side of the grid, twice :attr:`roi_size`.
    """

    roi_size = 14
    segm_size = 2 * roi_size

    def __init__(self, n_class: int, scales: Sequence[float], channels: int = 256):
        super().__init__(n_class, scales)
        initialW = initializers.HeNormal(1, fan_option='fan_out')
        with self.init_scope():
            self.conv1 = Conv2DActiv(channels, channels, 3, pad=1, initialW=initialW)
            self.conv2 = Conv2DActiv(channels, channels, 3, pad=1, initialW=initialW)
            self.conv3 = Conv2DActiv(channels, channels, 3, pad=1, initialW=initialW)
            self.conv4 = Conv2DActiv(channels, channels, 3, pad=1, initialW=initialW)
            self.conv5 = Deconvolution2D(channels, channels, 2, stride=2, initialW=initialW)
            self.seg = Convolution2D(channels, n_class, 1, initialW=initialW)

    def distribute(self, rois, roi_indices):
        """The regions of each level, by size, and where each region went (ChainerCV's
        ``MaskHead.distribute``; see :meth:`PyramidRoIHead.distribute_in_order`).

        Args:
            rois (array): ``(R, 4)`` float32, ``(y_min, x_min, y_max, x_max)`` in input pixels.
            roi_indices (array): ``(R,)`` int32, the image of each region.

        Returns:
            tuple: lists of ``len(scales)`` arrays ``(R_l, 4)`` float32 and ``(R_l,)`` int32,
            and ``order`` ``(R,)``: ``concatenate(rois_l)[order[i]] == rois[i]``.
        """
        return self.distribute_in_order(rois, roi_indices)

    def classify(self, pooled):
        """The logits for pooled features.

        Args:
            pooled (Variable): ``(R, channels, 14, 14)`` float32.

        Returns:
            Variable: ``segms`` ``(R, n_class, 28, 28)`` float32, the logit of each cell of
            each class.
        """
        h = self.conv4(self.conv3(self.conv2(self.conv1(pooled))))
        return self.seg(F.relu(self.conv5(h)))

    def decode(self, segms, bboxes, labels, sizes: Sequence[tuple[int, int]], *,
               paste: str = 'chainercv') -> list:
        """The masks of each image: each box's grid of its class pasted onto the image
        (:func:`segm_to_mask`, or :func:`paste_segm_torchvision` with ``paste='torchvision'``).

        Args:
            segms (sequence of arrays): ``(R_n, n_class, M, M)`` float32 per image, the
                probabilities of the cells (the sigmoid of :meth:`classify`'s logits).
            bboxes (sequence of arrays): ``(R_n, 4)`` float32 per image, in its pixels.
            labels (sequence of arrays): ``(R_n,)`` int32 per image, in ``[0, n_class - 2]``.
            sizes (sequence of pairs of int): ``(H_n, W_n)`` of each image.
            paste (str): ``'chainercv'`` or ``'torchvision'``.

        Returns:
            list of numpy.ndarray: ``(R_n, H_n, W_n)`` bool per image, on the CPU.

        Raises:
            ValueError: the four sequences differ in length, or ``paste`` is neither.
        """
        pasting = {'chainercv': segm_to_mask, 'torchvision': paste_segm_torchvision}
        if paste not in pasting:
            raise ValueError(f"MaskHead.decode: paste must be 'chainercv' or 'torchvision', "
                             f"but got {paste!r}")
        if not len(segms) == len(bboxes) == len(labels) == len(sizes):
            raise ValueError(f'MaskHead.decode: segms, bboxes, labels and sizes must have one '
                             f'entry per image, but got {len(segms)}, {len(bboxes)}, '
                             f'{len(labels)} and {len(sizes)}')
        masks = []
        for segm, bbox, label, size in zip(segms, bboxes, labels, sizes):
            segm = backend.to_cpu(as_array(segm))
            label = backend.to_cpu(label)
            masks.append(pasting[paste](segm[numpy.arange(len(label)), label + 1], bbox, size))
        return masks

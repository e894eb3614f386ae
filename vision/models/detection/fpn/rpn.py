"""The Region Proposal Network of the FPN detectors (ChainerCV's ``fpn.RPN``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy

import framework
import framework.functions as F
from framework import backend, initializers
from framework.links import Chain, Convolution2D
from framework.variable import as_array
from vision.models.detection.faster_rcnn.utils.enumerate_shifted_anchor import (
    enumerate_shifted_anchor,
)
from vision.models.detection.fpn.box_coding import decode_bbox
from vision.utils import non_maximum_suppression


class RPN(Chain):
    """Proposes regions on every level of a feature pyramid with shared convolutions.

    A 3x3 convolution with ReLU (``conv``) feeds two 1x1 convolutions that give, for each of the
    ``A = len(anchor_ratios)`` anchors of each cell, four offsets (``loc``) and one objectness
    logit (``conf``). The anchors of level ``l`` (stride ``1 / scales[l]``) have the area of a
    square of side ``anchor_size * 2 ** l``, centred on the cell.

    Args:
        scales (sequence of float): the size of each level relative to the input.
        channels (int): the channels of the levels and of ``conv`` (ChainerCV's 256).
        nms_thresh (float): the IoU at which a proposal suppresses another.
        n_train_pre_nms (int): the best-scored anchors of each level kept before suppression
            in training...
        n_train_post_nms (int): ...the proposals each level keeps after it, and the image in
            all.
        n_test_pre_nms (int): as ``n_train_pre_nms``, in inference.
        n_test_post_nms (int): as ``n_train_post_nms``, in inference.

    Attributes:
        anchor_size (int): the side of the anchors of the first level.
        anchor_ratios (tuple of float): their height-to-width ratios.
    """

    anchor_size = 32
    anchor_ratios = (0.5, 1, 2)

    def __init__(self, scales: Sequence[float], channels: int = 256, nms_thresh: float = 0.7,
                 n_train_pre_nms: int = 2000, n_train_post_nms: int = 2000,
                 n_test_pre_nms: int = 1000, n_test_post_nms: int = 1000):
        super().__init__()
        n_anchor = len(self.anchor_ratios)
        init = initializers.Normal(0.01)
        with self.init_scope():
            self.conv = Convolution2D(channels, channels, 3, pad=1, initialW=init)
            self.loc = Convolution2D(channels, n_anchor * 4, 1, initialW=init)
            self.conf = Convolution2D(channels, n_anchor, 1, initialW=init)
        self.scales = tuple(scales)
        self.nms_thresh = nms_thresh
        self.n_train_pre_nms = n_train_pre_nms
        self.n_train_post_nms = n_train_post_nms
        self.n_test_pre_nms = n_test_pre_nms
        self.n_test_post_nms = n_test_post_nms

    def forward(self, hs):
        """The offsets and objectness of the anchors of every level.

        Args:
            hs (sequence of Variable): the levels ``(N, C, H_l, W_l)``.

        Returns:
            tuple of two lists of Variables, one per level: ``locs`` ``(N, H_l W_l A, 4)`` and
            ``confs`` ``(N, H_l W_l A)``, float32, anchor-minor in the cells' row-major order.
        """
        locs, confs = [], []
        for h in hs:
            n = h.shape[0]
            h = F.relu(self.conv(h))
            locs.append(F.reshape(F.transpose(self.loc(h), (0, 2, 3, 1)), (n, -1, 4)))
            confs.append(F.reshape(F.transpose(self.conf(h), (0, 2, 3, 1)), (n, -1)))
        return locs, confs

    def anchors(self, sizes: Iterable[tuple[int, int]]) -> list:
        """The anchors of every level, in the order of :meth:`forward`'s outputs.

        The anchor of ratio ``r`` on level ``l`` has width ``round(1 / sqrt(r) / s_l)`` and
        height ``round(width * r)`` (in cells), times ``anchor_size * 2 ** l * s_l`` pixels,
        ``s_l`` being ``scales[l]``: ChainerCV's rounding.

        Args:
            sizes (iterable of pairs of int): ``(H_l, W_l)`` of each level.

        Returns:
            list of arrays: ``(H_l W_l A, 4)`` float32, ``(y_min, x_min, y_max, x_max)`` in
            input pixels, on the model's device.
        """
        ratios = numpy.asarray(self.anchor_ratios, numpy.float64)
        anchors = []
        for level, (H, W) in enumerate(sizes):
            scale = self.scales[level]
            w = numpy.round(1 / numpy.sqrt(ratios) / scale)
            h = numpy.round(w * ratios)
            hw = numpy.stack((h, w), axis=1) * (self.anchor_size << level) * scale
            centre = 0.5 / scale
            base = numpy.concatenate((centre - hw / 2, centre - hw / 2 + hw), axis=1)
            anchors.append(self.xp.asarray(enumerate_shifted_anchor(base, 1 / scale, H, W)))
        return anchors

    def decode(self, locs, confs, anchors, in_shape: tuple[int, ...]):
        """The proposals of each image.

        On each level, the ``n_pre_nms`` best-scored anchors are moved by their offsets
        (:func:`decode_bbox`), clipped to the input, those of no area dropped, and
        non-maximum suppression at :attr:`nms_thresh` keeps at most ``n_post_nms``; the
        ``n_post_nms`` best of all levels are the image's proposals. The numbers are those of
        training or of inference as ``framework.config.train`` says.

        Args:
            locs (list of Variables or arrays): ``(N, K_l, 4)`` per level.
            confs (list of Variables or arrays): ``(N, K_l)`` per level.
            anchors (list of arrays): ``(K_l, 4)`` per level (:meth:`anchors`).
            in_shape (tuple of int): ``(N, C, H, W)`` of the input.

        Returns:
            tuple: ``rois`` ``(R, 4)`` float32 (``(y_min, x_min, y_max, x_max)``, input pixels,
            image by image, each by decreasing score) and ``roi_indices`` ``(R,)`` int32.
        """
        if framework.config.train:
            n_pre, n_post = self.n_train_pre_nms, self.n_train_post_nms
        else:
            n_pre, n_post = self.n_test_pre_nms, self.n_test_post_nms
        locs = [as_array(loc) for loc in locs]
        confs = [as_array(conf) for conf in confs]
        xp = backend.get_array_module(*locs)
        size = xp.asarray(in_shape[2:], numpy.float32)
        rois, roi_indices = [], []
        for i in range(in_shape[0]):
            roi, conf = [], []
            for loc_l, conf_l, anchor in zip(locs, confs, anchors):
                order = xp.argsort(-conf_l[i], kind='stable')[:n_pre]
                roi_l = decode_bbox(anchor[order], loc_l[i][order])
                roi_l[:, :2] = xp.maximum(roi_l[:, :2], 0)
                roi_l[:, 2:] = xp.minimum(roi_l[:, 2:], size)
                valid = xp.flatnonzero((roi_l[:, 2:] > roi_l[:, :2]).all(axis=1))
                roi_l, conf_l = roi_l[valid], conf_l[i][order][valid]
                keep = xp.asarray(non_maximum_suppression(backend.to_cpu(roi_l),
                                                          self.nms_thresh, limit=n_post),
                                  numpy.intp)
                roi.append(roi_l[keep])
                conf.append(conf_l[keep])
            order = xp.argsort(-xp.concatenate(conf), kind='stable')[:n_post]
            rois.append(xp.concatenate(roi)[order])
            roi_indices.append(xp.full(len(order), i, numpy.int32))
        return (xp.concatenate(rois).astype(numpy.float32, copy=False),
                xp.concatenate(roi_indices))

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
    square of side ``anchor_size * 2 ** l``, centred on the cell (ChainerCV's layout; see
    ``anchor_layout`` for torchvision's).

    The options after ``n_test_post_nms`` default to ChainerCV's behaviour; torchvision's
    ``RegionProposalNetwork`` is ``anchor_layout='torchvision'``, ``clip_to_image=True``,
    ``min_roi_size=1e-3`` and ``rank_by_probability=True``
    (:data:`~vision.models.detection.fpn.torchvision_fpn.TORCHVISION_FPN_KWARGS`).

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
        anchor_layout (str): ``'chainercv'``: the anchor of ratio ``r`` has the rounded sizes
            of :meth:`anchors`, centred on the cell, and level ``l`` has the stride
            ``1 / scales[l]``; ``'torchvision'`` (``AnchorGenerator``): the corners
            ``round(+-w / 2)`` and ``round(+-h / 2)`` of ``w = s / sqrt(r)``,
            ``h = s * sqrt(r)`` (``s = anchor_size * 2 ** l``, in float32) around the cell's
            top-left corner, the stride of each axis the input's side divided (integer
            division) by the level's (the coarsest level of an 800x1216 input has the
            strides 61 and 64).
        clip_to_image (bool): clip the proposals to each image's resized size, given to
            :meth:`decode` (torchvision), rather than to the padded input (ChainerCV).
        min_roi_size (float): proposals narrower or lower than this (input pixels) are dropped
            (torchvision's ``1e-3``); those of no area always are.
        rank_by_probability (bool): the proposals of all levels are ranked by their float32
            sigmoid, ties kept in the order of the levels (torchvision's ``batched_nms``),
            rather than by their logit (ChainerCV); the two differ only where the sigmoid
            rounds distinct logits to one value, as it rounds every logit above 17 to 1.

    Attributes:
        anchor_size (int): the side of the anchors of the first level.
        anchor_ratios (tuple of float): their height-to-width ratios.
    """

    anchor_size = 32
    anchor_ratios = (0.5, 1, 2)

    def __init__(self, scales: Sequence[float], channels: int = 256, nms_thresh: float = 0.7,
                 n_train_pre_nms: int = 2000, n_train_post_nms: int = 2000,
                 n_test_pre_nms: int = 1000, n_test_post_nms: int = 1000, *,
                 anchor_layout: str = 'chainercv', clip_to_image: bool = False,
                 min_roi_size: float = 0., rank_by_probability: bool = False):
        super().__init__()
        if anchor_layout not in ('chainercv', 'torchvision'):
            raise ValueError(f"RPN: anchor_layout must be 'chainercv' or 'torchvision', but "
                             f"got {anchor_layout!r}")
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
        self.anchor_layout = anchor_layout
        self.clip_to_image = clip_to_image
        self.min_roi_size = float(min_roi_size)
        self.rank_by_probability = rank_by_probability

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

    def anchors(self, sizes: Iterable[tuple[int, int]],
                in_size: tuple[int, int] | None = None) -> list:
        """The anchors of every level, in the order of :meth:`forward`'s outputs.

        In ChainerCV's layout, the anchor of ratio ``r`` on level ``l`` has width
        ``round(1 / sqrt(r) / s_l)`` and height ``round(width * r)`` (in cells), times
        ``anchor_size * 2 ** l * s_l`` pixels, ``s_l`` being ``scales[l]``: ChainerCV's
        rounding. torchvision's is described by ``anchor_layout``.

        Args:
            sizes (iterable of pairs of int): ``(H_l, W_l)`` of each level.
            in_size (pair of int or None): ``(H, W)`` of the (padded) input, which
                torchvision's layout needs for its strides.

        Returns:
            list of arrays: ``(H_l W_l A, 4)`` float32, ``(y_min, x_min, y_max, x_max)`` in
            input pixels, on the model's device.

        Raises:
            ValueError: torchvision's layout without ``in_size``.
        """
        if self.anchor_layout == 'torchvision':
            if in_size is None:
                raise ValueError("RPN.anchors: anchor_layout='torchvision' needs in_size, the "
                                 "input's (H, W)")
            return self._torchvision_anchors(sizes, in_size)
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

    def _torchvision_anchors(self, sizes: Iterable[tuple[int, int]],
                             in_size: tuple[int, int]) -> list:
        """torchvision's ``AnchorGenerator`` (see ``anchor_layout``), as :meth:`anchors`."""
        one = numpy.float32(1)
        h_ratios = numpy.sqrt(numpy.asarray(self.anchor_ratios, numpy.float32))
        w_ratios = one / h_ratios
        anchors = []
        for level, (H, W) in enumerate(sizes):
            size = numpy.float32(self.anchor_size << level)
            half_h = numpy.round(h_ratios * size / numpy.float32(2))
            half_w = numpy.round(w_ratios * size / numpy.float32(2))
            base = numpy.stack((-half_h, -half_w, half_h, half_w), axis=1)
            stride_y, stride_x = int(in_size[0]) // H, int(in_size[1]) // W
            shift_x, shift_y = numpy.meshgrid(numpy.arange(W) * stride_x,
                                              numpy.arange(H) * stride_y)
            shift = numpy.stack((shift_y.ravel(), shift_x.ravel(), shift_y.ravel(),
                                 shift_x.ravel()), axis=1).astype(numpy.float32)
            anchor = (shift[:, None, :] + base[None, :, :]).reshape((-1, 4))
            anchors.append(self.xp.asarray(anchor.astype(numpy.float32)))
        return anchors

    def decode(self, locs, confs, anchors, in_shape: tuple[int, ...],
               image_sizes: Sequence[tuple[int, int]] | None = None):
        """The proposals of each image.

        On each level, the ``n_pre_nms`` best-scored anchors are moved by their offsets
        (:func:`decode_bbox`), clipped to the input (to the image with ``clip_to_image``),
        those of no area (or under ``min_roi_size``) dropped, and non-maximum suppression at
        :attr:`nms_thresh` keeps at most ``n_post_nms``; the ``n_post_nms`` best of all levels
        (by logit, or by probability with ``rank_by_probability``) are the image's proposals.
        The numbers are those of training or of inference as ``framework.config.train`` says.

        Args:
            locs (list of Variables or arrays): ``(N, K_l, 4)`` per level.
            confs (list of Variables or arrays): ``(N, K_l)`` per level.
            anchors (list of arrays): ``(K_l, 4)`` per level (:meth:`anchors`).
            in_shape (tuple of int): ``(N, C, H, W)`` of the input.
            image_sizes (sequence of pairs of int or None): ``(H_i, W_i)`` of each image as
                resized, before padding; needed with ``clip_to_image``.

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
        if self.clip_to_image and image_sizes is None:
            raise ValueError('RPN.decode: clip_to_image needs image_sizes')
        rois, roi_indices = [], []
        for i in range(in_shape[0]):
            size = xp.asarray(image_sizes[i] if self.clip_to_image else in_shape[2:],
                              numpy.float32)
            roi, conf = [], []
            for loc_l, conf_l, anchor in zip(locs, confs, anchors):
                order = xp.argsort(-conf_l[i], kind='stable')[:n_pre]
                roi_l = decode_bbox(anchor[order], loc_l[i][order])
                if self.clip_to_image:
                    roi_l = xp.clip(roi_l, 0, xp.concatenate((size, size)))
                else:
                    roi_l[:, :2] = xp.maximum(roi_l[:, :2], 0)
                    roi_l[:, 2:] = xp.minimum(roi_l[:, 2:], size)
                extent = roi_l[:, 2:] - roi_l[:, :2]
                valid = (extent > 0).all(axis=1)
                if self.min_roi_size > 0:
                    valid &= (extent >= self.min_roi_size).all(axis=1)
                valid = xp.flatnonzero(valid)
                roi_l, conf_l = roi_l[valid], conf_l[i][order][valid]
                keep = xp.asarray(non_maximum_suppression(backend.to_cpu(roi_l),
                                                          self.nms_thresh, limit=n_post),
                                  numpy.intp)
                roi.append(roi_l[keep])
                conf.append(conf_l[keep])
            conf = xp.concatenate(conf)
            if self.rank_by_probability:
                # exp(88.72) is float32's largest power of e: below, torchvision's sigmoid
                # is 0 or subnormal, as is this one, without overflowing.
                conf = xp.maximum(conf.astype(numpy.float32), numpy.float32(-88.72))
                conf = (1 / (1 + xp.exp(-conf))).astype(numpy.float32)
            order = xp.argsort(-conf, kind='stable')[:n_post]
            rois.append(xp.concatenate(roi)[order])
            roi_indices.append(xp.full(len(order), i, numpy.int32))
        return (xp.concatenate(rois).astype(numpy.float32, copy=False),
                xp.concatenate(roi_indices))

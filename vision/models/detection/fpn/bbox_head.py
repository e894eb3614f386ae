"""The box head of the FPN detectors (ChainerCV's ``fpn.BboxHead``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

import framework.functions as F
from framework import backend, initializers
from framework.initializers.base import Initializer
from framework.links import Linear
from framework.variable import as_array
from vision.models.detection.faster_rcnn.utils.suppress_per_class import suppress_per_class
from vision.models.detection.fpn.box_coding import decode_bbox
from vision.models.detection.fpn.pyramid_roi_head import PyramidRoIHead


class Caffe2FCUniform(Initializer):
    """Caffe2's initializer of fully connected layers (ChainerCV's): uniform on
    ``[-s, s)`` with ``s = 1 / sqrt(array.shape[-1])`` (the inputs for a weight, the outputs
    for a bias)."""

    def __call__(self, array) -> None:
        initializers.Uniform(1 / numpy.sqrt(array.shape[-1]))(array)


class BboxHead(PyramidRoIHead):
    """Classifies the regions of a feature pyramid and regresses their boxes.

    Each region is RoI-aligned to 7x7 on its level (:class:`PyramidRoIHead`), then goes
    through ``fc1`` and ``fc2`` (with ReLU), then ``loc`` (four offsets per class) and
    ``conf`` (one logit per class).

    Args:
        n_class (int): the number of classes, background included.
        scales (sequence of float): the size of each level relative to the input.
        channels (int): the channels of the levels (ChainerCV's 256).
        n_hidden (int): the outputs of ``fc1`` and ``fc2`` (ChainerCV's 1024).

    Attributes:
        std (tuple of float): the deviations of the centre and size offsets
            (:func:`~vision.models.detection.fpn.box_coding.encode_bbox`).
    """

    std = (0.1, 0.2)

    def __init__(self, n_class: int, scales: Sequence[float], channels: int = 256,
                 n_hidden: int = 1024):
        super().__init__(n_class, scales)
        fc_init = {'initialW': Caffe2FCUniform(), 'initial_bias': Caffe2FCUniform()}
        with self.init_scope():
            self.fc1 = Linear(channels * self.roi_size ** 2, n_hidden, **fc_init)
            self.fc2 = Linear(n_hidden, n_hidden, **fc_init)
            self.loc = Linear(n_hidden, n_class * 4, initialW=initializers.Normal(0.001))
            self.conf = Linear(n_hidden, n_class, initialW=initializers.Normal(0.01))

    def distribute(self, rois, roi_indices):
        """The regions of each level, by size (ChainerCV's ``BboxHead.distribute``).

        Args:
            rois (array): ``(R, 4)`` float32, ``(y_min, x_min, y_max, x_max)`` in input pixels.
            roi_indices (array): ``(R,)`` int32, the image of each region.

        Returns:
            tuple of two lists of ``len(scales)`` arrays: ``(R_l, 4)`` float32 and ``(R_l,)``
            int32.
        """
        rois, roi_indices, _ = self.distribute_in_order(rois, roi_indices)
        return rois, roi_indices

    def classify(self, pooled):
        """The outputs for pooled features.

        Args:
            pooled (Variable): ``(R, channels, 7, 7)`` float32.

        Returns:
            tuple of two Variables: ``locs`` ``(R, n_class, 4)`` and ``confs``
            ``(R, n_class)``, float32.
        """
        h = F.reshape(pooled, (pooled.shape[0], int(numpy.prod(pooled.shape[1:]))))
        h = F.relu(self.fc1(h))
        h = F.relu(self.fc2(h))
        locs = F.reshape(self.loc(h), (h.shape[0], self.n_class, 4))
        return locs, self.conf(h)

    def decode(self, rois, roi_indices, locs, confs, scales: Sequence[float],
               sizes: Sequence[tuple[int, int]], nms_thresh: float, score_thresh: float, *,
               resized_sizes: Sequence[tuple[int, int]] | None = None, min_size: float = 0.,
               limit: int | None = None):
        """The detections of each image.

        Each region's offsets of each class (times :attr:`std`, :func:`decode_bbox`) give a box
        in the original image (the region divided by the image's scale), clipped to it; its
        score is the softmax probability of the class. Class by class, the boxes scored at
        least ``score_thresh`` go through non-maximum suppression at ``nms_thresh``. Boxes
        that clipping leaves without area are no detections (ChainerCV clipped only the
        top-left corner from below and the bottom-right one from above, and kept boxes
        beyond the image, upside down).

        With ``resized_sizes`` (torchvision's postprocessing), the boxes are decoded from the
        regions as they are, clipped to the resized image, suppressed there, and then scaled
        by ``size / resized_size`` on each axis (in float32).

        Args:
            rois (sequence of arrays): ``(R_l, 4)`` float32 per level, in input pixels.
            roi_indices (sequence of arrays): ``(R_l,)`` int32 per level.
            locs (Variable or array): ``(R, n_class, 4)``, the regions in the order of the
                levels.
            confs (Variable or array): ``(R, n_class)``.
            scales (sequence of float): the factor each image was scaled by.
            sizes (sequence of pairs of int): ``(H, W)`` of each original image.
            nms_thresh (float): the IoU at which a detection suppresses another of its class.
            score_thresh (float): the least probability of a detection.
            resized_sizes (sequence of pairs of int or None): ``(H', W')`` of each image as
                resized; None for ChainerCV's decoding in the original image.
            min_size (float): boxes narrower or lower than this (in the frame of decoding)
                are no detections.
            limit (int or None): the most detections of an image, the best-scored (ties in
                the order of labels); None for all.

        Returns:
            tuple of three lists, one entry per image, on the model's device: ``bboxes``
            ``(R', 4)`` float32, ``labels`` ``(R',)`` int32 in ``[0, n_class - 2]`` and
            ``scores`` ``(R',)`` float32, ordered by label, then by decreasing score.
        """
        xp = self.xp
        rois = xp.concatenate(rois)
        roi_indices = xp.concatenate(roi_indices)
        locs = as_array(locs)
        probs = F.softmax(confs).array
        bboxes, labels, scores = [], [], []
        for i, (scale, size) in enumerate(zip(scales, sizes)):
            mask = xp.flatnonzero(roi_indices == i)
            roi = rois[mask]
            if resized_sizes is None:
                roi = roi / numpy.float32(scale)
            else:
                size = resized_sizes[i]
            roi = xp.broadcast_to(roi[:, None], locs[mask].shape)
            bbox = decode_bbox(roi.reshape((-1, 4)), locs[mask].reshape((-1, 4)), self.std)
            bbox = bbox.reshape((-1, self.n_class, 4))
            bbox[:, :, 0::2] = xp.clip(bbox[:, :, 0::2], 0, size[0])
            bbox[:, :, 1::2] = xp.clip(bbox[:, :, 1::2], 0, size[1])
            bbox, prob = backend.to_cpu(bbox), backend.to_cpu(probs[mask])
            extent = bbox[:, 1:, 2:] - bbox[:, 1:, :2]
            candidate = (prob[:, 1:] >= score_thresh) & (extent > 0).all(axis=2)
            if min_size > 0:
                candidate &= (extent >= min_size).all(axis=2)
            bbox, label, score = suppress_per_class(bbox, prob, candidate, nms_thresh)
            if limit is not None and len(score) > limit:
                keep = numpy.sort(numpy.argsort(-score, kind='stable')[:limit])
                bbox, label, score = bbox[keep], label[keep], score[keep]
            if resized_sizes is not None:
                ratio = (numpy.asarray(sizes[i], numpy.float32)
                         / numpy.asarray(resized_sizes[i], numpy.float32))
                bbox = (bbox * numpy.tile(ratio, 2)).astype(numpy.float32)
            bboxes.append(xp.asarray(bbox))
            labels.append(xp.asarray(label))
            scores.append(xp.asarray(score))
        return bboxes, labels, scores


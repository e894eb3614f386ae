"""Region proposals from the RPN's outputs (ChainerCV's ``ProposalCreator``)."""

from __future__ import annotations

import numpy

import framework
from framework import backend
from vision.models.detection.faster_rcnn.utils.loc2bbox import loc2bbox
from vision.utils import non_maximum_suppression


class ProposalCreator:
    """Turns the anchors, the RPN's offsets and objectness scores of one image into proposals.

    The anchors are moved by the offsets (:func:`loc2bbox`) and clipped to the image; boxes
    smaller than ``min_size * scale`` on either side are dropped; the ``n_pre_nms`` best-scored
    remain, non-maximum suppression at ``nms_thresh`` runs on them, and the ``n_post_nms`` best
    survivors are the proposals. The numbers of boxes before and after suppression are those
    of training or of testing as ``framework.config.train`` says.

    Args:
        nms_thresh (float): the IoU at which a proposal suppresses another.
        n_train_pre_nms (int): boxes kept before suppression in training (0: all).
        n_train_post_nms (int): proposals kept after suppression in training (0: all).
        n_test_pre_nms (int): boxes kept before suppression in testing (0: all).
        n_test_post_nms (int): proposals kept after suppression in testing (0: all).
        force_cpu_nms (bool): ChainerCV's switch, kept for its signature: the suppression
            always runs on the CPU (:func:`vision.utils.non_maximum_suppression`).
        min_size (float): the least side of a proposal, in pixels of the original image.
    """

    def __init__(self, nms_thresh: float = 0.7, n_train_pre_nms: int = 12000,
                 n_train_post_nms: int = 2000, n_test_pre_nms: int = 6000,
                 n_test_post_nms: int = 300, force_cpu_nms: bool = False,
                 min_size: float = 16):
        self.nms_thresh = nms_thresh
        self.n_train_pre_nms = n_train_pre_nms
        self.n_train_post_nms = n_train_post_nms
        self.n_test_pre_nms = n_test_pre_nms
        self.n_test_post_nms = n_test_post_nms
        self.force_cpu_nms = force_cpu_nms
        self.min_size = min_size

    def __call__(self, loc, score, anchor, img_size: tuple[int, int], scale: float = 1.):
        """Proposes regions of one image.

        Args:
            loc (array): ``(R, 4)`` float32, the offsets of the anchors.
            score (array): ``(R,)`` float32, the objectness of the anchors.
            anchor (array): ``(R, 4)`` float32, the anchors ``(y_min, x_min, y_max, x_max)``.
            img_size (tuple of int): ``(H, W)`` of the image given to the network (after
                scaling).
            scale (float): the factor the original image was scaled by.

        Returns:
            array: ``(S, 4)`` float32 proposals ``(y_min, x_min, y_max, x_max)`` in the
            scaled image's pixels, by decreasing score, on ``loc``'s device.
        """
        xp = backend.get_array_module(loc, score, anchor)
        if framework.config.train:
            n_pre_nms, n_post_nms = self.n_train_pre_nms, self.n_train_post_nms
        else:
            n_pre_nms, n_post_nms = self.n_test_pre_nms, self.n_test_post_nms
        roi = loc2bbox(anchor, loc)
        roi[:, 0::2] = xp.clip(roi[:, 0::2], 0, img_size[0])
        roi[:, 1::2] = xp.clip(roi[:, 1::2], 0, img_size[1])
        min_size = self.min_size * scale
        keep = xp.flatnonzero((roi[:, 2] - roi[:, 0] >= min_size)
                              & (roi[:, 3] - roi[:, 1] >= min_size))
        roi = roi[keep]
        order = xp.argsort(-score.ravel()[keep], kind='stable')
        if n_pre_nms > 0:
            order = order[:n_pre_nms]
        roi = roi[order]
        keep = non_maximum_suppression(backend.to_cpu(roi), self.nms_thresh,
                                       limit=n_post_nms if n_post_nms > 0 else None)
        return roi[xp.asarray(keep.astype(numpy.intp))]

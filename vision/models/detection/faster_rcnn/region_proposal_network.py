"""The Region Proposal Network of Faster R-CNN (ChainerCV's ``RegionProposalNetwork``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import numpy

import framework.functions as F
from framework.links import Chain, Convolution2D
from vision.models.detection.faster_rcnn.utils.enumerate_shifted_anchor import (
    enumerate_shifted_anchor,
)
from vision.models.detection.faster_rcnn.utils.generate_anchor_base import generate_anchor_base
from vision.models.detection.faster_rcnn.utils.proposal_creator import ProposalCreator


class RegionProposalNetwork(Chain):
    """Proposes regions from a feature map (Ren et al., "Faster R-CNN", 2015).

    A 3x3 convolution with ReLU (``conv1``) feeds two 1x1 convolutions that give, for each of
    the ``A = len(ratios) * len(anchor_scales)`` anchors of each cell, four offsets (``loc``)
    and two scores, background and foreground (``score``); :class:`ProposalCreator` turns the
    foreground scores and the offsets into proposals.

    The call is split in two for models that run the convolutions as a static graph:
    :meth:`forward_conv` (the convolutions, differentiable) and :meth:`propose` (the anchors and
    proposals, on arrays); :meth:`forward` does both.

    Args:
        in_channels (int): the channels of the feature map.
        mid_channels (int): the channels of ``conv1``.
        ratios (sequence of float): the height-to-width ratios of the anchors.
        anchor_scales (sequence of float): the sides of the anchors in cells.
        feat_stride (int): the distance between cells, in input pixels.
        initialW (callable): the initializer of the convolutions' weights.
        proposal_creator_params (dict): the arguments of :class:`ProposalCreator`.

    Attributes:
        anchor_base (numpy.ndarray): ``(A, 4)`` float32, the anchors of the first cell.
        proposal_layer (ProposalCreator): what turns outputs into proposals.
    """

    def __init__(self, in_channels: int = 512, mid_channels: int = 512,
                 ratios: Sequence[float] = (0.5, 1, 2),
                 anchor_scales: Sequence[float] = (8, 16, 32), feat_stride: int = 16,
                 initialW=None, proposal_creator_params: Mapping | None = None):
        super().__init__()
        self.anchor_base = generate_anchor_base(ratios=ratios, anchor_scales=anchor_scales)
        self.feat_stride = feat_stride
        self.proposal_layer = ProposalCreator(**(proposal_creator_params or {}))
        n_anchor = len(self.anchor_base)
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, mid_channels, 3, 1, 1, initialW=initialW)
            self.score = Convolution2D(mid_channels, n_anchor * 2, 1, 1, 0, initialW=initialW)
            self.loc = Convolution2D(mid_channels, n_anchor * 4, 1, 1, 0, initialW=initialW)

    def forward(self, x, img_size: tuple[int, int], scales: float | Iterable[float] | None = None):
        """Computes the offsets and scores of the anchors and the proposals.

        Args:
            x (Variable): ``(N, C, H', W')``, the feature map.
            img_size (tuple of int): ``(H, W)`` of the images given to the network.
            scales (float, sequence of float or None): the factor each original image was
                scaled by (one for all; None: 1).

        Returns:
            tuple: ``(rpn_locs, rpn_scores, rois, roi_indices, anchor)``:

            - **rpn_locs**: Variable ``(N, H' W' A, 4)``, the offsets of the anchors;
            - **rpn_scores**: Variable ``(N, H' W' A, 2)``, their background and foreground
              scores;
            - **rois**: array ``(R, 4)`` float32, the proposals of all images, concatenated;
            - **roi_indices**: array ``(R,)`` int32, the image of each proposal;
            - **anchor**: array ``(H' W' A, 4)`` float32, the anchors.
        """
        rpn_locs, rpn_scores = self.forward_conv(x)
        rois, roi_indices, anchor = self.propose(rpn_locs.array, rpn_scores.array,
                                                 x.shape[2:], img_size, scales)
        return rpn_locs, rpn_scores, rois, roi_indices, anchor

    def forward_conv(self, x):
        """The convolutions: ``rpn_locs`` ``(N, H' W' A, 4)`` and ``rpn_scores``
        ``(N, H' W' A, 2)`` (Variables), anchor-minor in the cells' row-major order."""
        n = x.shape[0]
        h = F.relu(self.conv1(x))
        rpn_locs = F.reshape(F.transpose(self.loc(h), (0, 2, 3, 1)), (n, -1, 4))
        rpn_scores = F.reshape(F.transpose(self.score(h), (0, 2, 3, 1)), (n, -1, 2))
        return rpn_locs, rpn_scores

    def propose(self, rpn_locs, rpn_scores, feature_size: tuple[int, int],
                img_size: tuple[int, int], scales: float | Iterable[float] | None = None):
        """The proposals of each image from the outputs of :meth:`forward_conv`.

        Args:
            rpn_locs (array): ``(N, H' W' A, 4)`` float32.
            rpn_scores (array): ``(N, H' W' A, 2)`` float32; the foreground score ranks.
            feature_size (tuple of int): ``(H', W')`` of the feature map.
            img_size (tuple of int): ``(H, W)`` of the images given to the network.
            scales (float, sequence of float or None): as in :meth:`forward`.

        Returns:
            tuple: ``(rois, roi_indices, anchor)`` as in :meth:`forward`.
        """
        n = len(rpn_locs)
        xp = self.xp
        if scales is None:
            scales = [1.] * n
        elif not isinstance(scales, Iterable):
            scales = [scales] * n
        scales = list(scales)
        if len(scales) != n:
            raise ValueError(f'RegionProposalNetwork: scales must give one scale per image, '
                             f'{n}, but got {len(scales)}')
        anchor = enumerate_shifted_anchor(xp.asarray(self.anchor_base), self.feat_stride,
                                          *feature_size)
        rois, roi_indices = [], []
        for i in range(n):
            roi = self.proposal_layer(rpn_locs[i], rpn_scores[i, :, 1], anchor, img_size,
                                      scale=float(scales[i]))
            rois.append(roi)
            roi_indices.append(xp.full((len(roi),), i, dtype=numpy.int32))
        return xp.concatenate(rois, axis=0), xp.concatenate(roi_indices, axis=0), anchor

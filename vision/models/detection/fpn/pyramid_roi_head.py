"""What the RoI heads of the FPN detectors share: the level of each region and RoI align over
the levels (ChainerCV's ``BboxHead`` and ``MaskHead`` repeat it)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

import framework.functions as F
from framework.config import no_backprop_mode, using_config
from framework.graph.hybridizable import Hybridizable
from framework.links import Chain
from framework.variable import Variable
from vision.models.detection.fpn.level_assignment import assign_levels, split_by_level


class PyramidRoIHead(Hybridizable, Chain):
    """A head on the regions of a feature pyramid: each region is assigned a level by its size
    (:meth:`distribute_in_order`) and RoI-aligned there (:meth:`pool`, average of
    ``roi_sample_ratio`` squared bilinear samples per bin); :meth:`classify` (a subclass's)
    maps the pooled features to the head's outputs, and ``hybridize()`` makes it a static
    graph, traced per number of regions.

    Args:
        n_class (int): the number of classes, background included.
        scales (sequence of float): the size of each level relative to the input.

    Attributes:
        canonical_level (int): the level of a region of side :attr:`canonical_scale`.
        canonical_scale (float): see :func:`assign_levels`.
        roi_size (int): the side of the pooled features.
        roi_sample_ratio (int): bilinear samples per bin and axis.
    """

    canonical_level = 2
    canonical_scale = 224
    roi_size = 7
    roi_sample_ratio = 2

    def __init__(self, n_class: int, scales: Sequence[float]):
        super().__init__()
        self.n_class = n_class
        self.scales = tuple(scales)

    def distribute_in_order(self, rois, roi_indices):
        """The regions of each level (:func:`split_by_level`).

        Args:
            rois (array): ``(R, 4)`` float32, ``(y_min, x_min, y_max, x_max)`` in input pixels.
            roi_indices (array): ``(R,)`` int32, the image of each region.

        Returns:
            tuple: lists of ``len(scales)`` arrays ``(R_l, 4)`` float32 and ``(R_l,)`` int32,
            and ``order`` ``(R,)``: ``concatenate(rois_l)[order[i]] == rois[i]``.
        """
        level = assign_levels(rois, len(self.scales), self.canonical_level,
                              self.canonical_scale)
        return split_by_level(rois, roi_indices, level, len(self.scales))

    def pool(self, hs, rois, roi_indices) -> Variable:
        """RoI average align of the regions of each level on its map, levels concatenated.

        Args:
            hs (sequence of Variable): the levels ``(N, C, H_l, W_l)``.
            rois (sequence of array): ``(R_l, 4)`` float32 per level.
            roi_indices (sequence of array): ``(R_l,)`` int32 per level.

        Returns:
            Variable: ``(sum R_l, C, roi_size, roi_size)`` float32.
        """
        pooled = [F.roi_average_align_2d(h, roi, index, self.roi_size, scale,
                                         self.roi_sample_ratio)
                  for h, roi, index, scale in zip(hs, rois, roi_indices, self.scales)
                  if len(roi) > 0]
        if not pooled:
            xp = self.xp
            return Variable(xp.zeros((0, hs[0].shape[1], self.roi_size, self.roi_size),
                                     numpy.float32))
        return F.concat(pooled, axis=0)

    def forward(self, hs, rois, roi_indices):
        """:meth:`classify` of :meth:`pool`."""
        return self.classify(self.pool(hs, rois, roi_indices))

    def classify(self, pooled):
        """The head's outputs for pooled features ``(R, C, roi_size, roi_size)``."""
        raise NotImplementedError

    def hybridized_link(self):
        """:meth:`classify`, which :meth:`infer` runs."""
        return self.classify

    def infer(self, pooled):
        """:meth:`classify` of pooled features with ``train`` off and without
        backpropagation, as the static graph of their number after ``hybridize()``; no region
        runs eagerly (no graph is traced for an empty batch)."""
        if len(pooled) == 0:
            with using_config('train', False), no_backprop_mode():
                return self.classify(pooled)
        return super().infer(pooled)

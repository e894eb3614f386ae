"""The head of FCIS ResNet-101 (ChainerCV's ``FCISResNet101Head``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

import framework.functions as F
from framework import initializers
from framework.links import Chain, Convolution2D
from vision.models.detection.faster_rcnn.utils.loc2bbox import loc2bbox


class FCISResNet101Head(Chain):
    """Segments, classifies and localises regions with position-sensitive score maps (Li et
    al., "Fully Convolutional Instance-aware Semantic Segmentation", 2017).

    A 1x1 convolution with ReLU (``conv1``) feeds two 1x1 convolutions: ``cls_seg``, the
    inside and outside score maps of each class at each of the ``group_size x group_size``
    relative positions, and ``ag_loc``, class-agnostic box offsets (background and
    foreground) at each position. Each region is pooled from them
    (:func:`framework.functions.ps_roi_average_pooling_2d`) to ``roi_size x roi_size``: the
    score of a class is the mean over the region of the larger of its inside and outside
    scores; the offsets are the means of their maps; the mask scores are the inside and outside
    maps of the best-scored class (of the ground-truth class in training).

    With ``iter2``, the regions moved by their foreground offsets (:func:`loc2bbox`, after
    ``loc_normalize_std`` and ``loc_normalize_mean``) and clipped to the image are pooled a
    second time, and both passes are returned, the first's regions first.

    The call is split for models that run the convolutions as a static graph:
    :meth:`convolve` (the convolutions) and :meth:`pool` (the regions); :meth:`forward` does
    both.

    Args:
        n_class (int): the number of classes, background included.
        roi_size (int): the side of the pooled grids (and of the masks).
        group_size (int): the number of relative positions along each side.
        spatial_scale (float): the factor from image pixels to feature-map pixels.
        loc_normalize_mean (sequence of float): the four means of the offsets.
        loc_normalize_std (sequence of float): their four deviations.
        iter2 (bool): pool the moved regions a second time.
        initialW (callable): the initializer of the kernels (default: normal, 0.01).
        in_channels (int): the channels of the feature map (ResNet-101's ``res5``, 2048).
        mid_channels (int): the channels of ``conv1`` (1024).
    """

    def __init__(self, n_class: int, roi_size: int, group_size: int, spatial_scale: float,
                 loc_normalize_mean: Sequence[float], loc_normalize_std: Sequence[float],
                 iter2: bool, initialW=None, in_channels: int = 2048,
                 mid_channels: int = 1024):
        super().__init__()
        if initialW is None:
            initialW = initializers.Normal(0.01)
        self.n_class = n_class
        self.roi_size = roi_size
        self.group_size = group_size
        self.spatial_scale = spatial_scale
        self.loc_normalize_mean = loc_normalize_mean
        self.loc_normalize_std = loc_normalize_std
        self.iter2 = iter2
        n_position = group_size * group_size
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, mid_channels, 1, 1, 0, initialW=initialW)
            self.cls_seg = Convolution2D(mid_channels, n_position * n_class * 2, 1, 1, 0,
                                         initialW=initialW)
            self.ag_loc = Convolution2D(mid_channels, n_position * 2 * 4, 1, 1, 0,
                                        initialW=initialW)

    def forward(self, x, rois, roi_indices, img_size: tuple[int, int], gt_roi_labels=None):
        """Segments, classifies and localises regions.

        Args:
            x (Variable): ``(N, in_channels, H', W')``, the feature map.
            rois (array): ``(R, 4)`` float32, the regions ``(y_min, x_min, y_max, x_max)`` in
                image pixels, the images' concatenated.
            roi_indices (array): ``(R,)`` int32, the image of each region.
            img_size (tuple of int): ``(H, W)`` of the images given to the network.
            gt_roi_labels (array or None): ``(R,)`` int32, the class (background 0) whose
                mask scores to return; None: the best-scored class.

        Returns:
            tuple: ``(roi_ag_seg_scores, roi_ag_locs, roi_cls_scores, rois, roi_indices)``:
            Variables ``(R2, 2, roi_size, roi_size)`` (outside and inside scores),
            ``(R2, 2, 4)`` (background and foreground offsets) and ``(R2, n_class)``,
            float32; arrays ``(R2, 4)`` float32 and ``(R2,)`` int32, the regions pooled;
            ``R2`` is ``2 R`` with ``iter2``, ``R`` without.
        """
        h_cls_seg, h_ag_loc = self.convolve(x)
        return self.pool(h_cls_seg, h_ag_loc, rois, roi_indices, img_size, gt_roi_labels)

    def convolve(self, x):
        """The score maps ``h_cls_seg`` ``(N, group_size ** 2 * n_class * 2, H', W')`` and
        ``h_ag_loc`` ``(N, group_size ** 2 * 8, H', W')`` (Variables) of the feature map."""
        h = F.relu(self.conv1(x))
        return self.cls_seg(h), self.ag_loc(h)

    def pool(self, h_cls_seg, h_ag_loc, rois, roi_indices, img_size: tuple[int, int],
             gt_roi_labels=None):
        """:meth:`forward` given the score maps of :meth:`convolve`."""
        roi_ag_seg_scores, roi_ag_locs, roi_cls_scores = self._pool(
            h_cls_seg, h_ag_loc, rois, roi_indices, gt_roi_labels)
        if not self.iter2:
            return roi_ag_seg_scores, roi_ag_locs, roi_cls_scores, rois, roi_indices
        xp = self.xp
        mean = xp.asarray(self.loc_normalize_mean, numpy.float32)
        std = xp.asarray(self.loc_normalize_std, numpy.float32)
        roi_locs = (roi_ag_locs.array[:, 1] * std + mean).astype(numpy.float32)
        rois2 = loc2bbox(rois, roi_locs)
        rois2[:, 0::2] = xp.clip(rois2[:, 0::2], 0, img_size[0])
        rois2[:, 1::2] = xp.clip(rois2[:, 1::2], 0, img_size[1])
        roi_ag_seg_scores2, roi_ag_locs2, roi_cls_scores2 = self._pool(
            h_cls_seg, h_ag_loc, rois2, roi_indices, gt_roi_labels)
        return (F.concat((roi_ag_seg_scores, roi_ag_seg_scores2), axis=0),
                F.concat((roi_ag_locs, roi_ag_locs2), axis=0),
                F.concat((roi_cls_scores, roi_cls_scores2), axis=0),
                xp.concatenate((rois, rois2)), xp.concatenate((roi_indices, roi_indices)))

    def _pool(self, h_cls_seg, h_ag_loc, rois, roi_indices, gt_roi_labels):
        """One pass: the mask scores ``(R, 2, S, S)``, offsets ``(R, 2, 4)`` and class scores
        ``(R, n_class)`` of the regions."""
        size = self.roi_size
        roi_cls_ag_seg_scores = F.ps_roi_average_pooling_2d(
            h_cls_seg, rois, roi_indices, (self.n_class * 2, size, size), self.spatial_scale,
            self.group_size)
        roi_cls_ag_seg_scores = F.reshape(roi_cls_ag_seg_scores,
                                          (-1, self.n_class, 2, size, size))
        roi_ag_loc_scores = F.ps_roi_average_pooling_2d(
            h_ag_loc, rois, roi_indices, (2 * 4, size, size), self.spatial_scale,
            self.group_size)
        roi_cls_scores = F.average(F.max(roi_cls_ag_seg_scores, axis=2), axis=(2, 3))
        roi_ag_locs = F.reshape(F.average(roi_ag_loc_scores, axis=(2, 3)), (-1, 2, 4))
        if gt_roi_labels is None:
            cls_indices = roi_cls_scores.array.argmax(axis=1)
        else:
            cls_indices = gt_roi_labels
        roi_ag_seg_scores = roi_cls_ag_seg_scores[self.xp.arange(len(cls_indices)),
                                                  cls_indices]
        return roi_ag_seg_scores, roi_ag_locs, roi_cls_scores

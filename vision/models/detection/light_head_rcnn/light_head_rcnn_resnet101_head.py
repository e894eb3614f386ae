"""The head of Light-Head R-CNN ResNet-101 (ChainerCV's ``LightHeadRCNNResNet101Head``)."""

from __future__ import annotations

import framework.functions as F
from framework.graph.hybridizable import Hybridizable
from framework.links import Chain, Linear
from vision.models.detection.light_head_rcnn.global_context_module import GlobalContextModule


class LightHeadRCNNResNet101Head(Hybridizable, Chain):
    """Classifies regions and regresses their boxes from a thin position-sensitive map.

    The :class:`GlobalContextModule` (kernels of 15, 256 middle channels) turns the features
    into ``10 * roi_size ** 2`` channels; each region is pooled from them by
    position-sensitive RoI max align (:func:`framework.functions.ps_roi_max_align_2d`, 10
    channels of ``roi_size x roi_size`` bins, two points per bin along each axis, 0 for a bin
    without points) and goes through ``fc1`` (2048, ReLU), then ``cls_loc`` (four offsets per
    class) and ``score`` (one score per class).

    :meth:`infer` runs :meth:`forward` (``hybridize()`` makes it a static graph, traced per
    number of regions).

    Args:
        n_class (int): the number of classes, background included.
        roi_size (int): the side of the pooled bins, and of the position-sensitive groups.
        spatial_scale (float): the factor from image pixels to feature-map pixels.
        global_module_initialW (callable): the initializer of the global context module.
        loc_initialW (callable): the initializer of ``cls_loc``.
        score_initialW (callable): the initializer of ``fc1`` and ``score``.
        in_channels (int): the channels of the feature map (ResNet's ``res5``, 2048).
    """

    #: the channels of the pooled regions
    n_pooled_channel = 10

    def __init__(self, n_class: int, roi_size: int, spatial_scale: float,
                 global_module_initialW=None, loc_initialW=None, score_initialW=None,
                 in_channels: int = 2048):
        super().__init__()
        thin_channels = self.n_pooled_channel * roi_size * roi_size
        with self.init_scope():
            self.global_context_module = GlobalContextModule(
                in_channels, 256, thin_channels, 15, initialW=global_module_initialW)
            self.fc1 = Linear(thin_channels, 2048, initialW=score_initialW)
            self.score = Linear(2048, n_class, initialW=score_initialW)
            self.cls_loc = Linear(2048, 4 * n_class, initialW=loc_initialW)
        self.n_class = n_class
        self.roi_size = roi_size
        self.spatial_scale = spatial_scale

    def forward(self, x, rois, roi_indices):
        """Classifies regions.

        Args:
            x (Variable): ``(N, in_channels, H', W')``, the feature map.
            rois (array): ``(R, 4)`` float32, the regions ``(y_min, x_min, y_max, x_max)`` in
                image pixels.
            roi_indices (array): ``(R,)`` int32, the image of each region.

        Returns:
            tuple of two Variables: ``roi_cls_locs`` ``(R, 4 * n_class)`` and ``roi_scores``
            ``(R, n_class)``, float32.
        """
        h = self.global_context_module(x)
        pool = F.ps_roi_max_align_2d(
            h, rois, roi_indices, (self.n_pooled_channel, self.roi_size, self.roi_size),
            self.spatial_scale, self.roi_size, sampling_ratio=2, empty_value=0.)
        fc1 = F.relu(self.fc1(pool))
        return self.cls_loc(fc1), self.score(fc1)

"""The head of Faster R-CNN VGG-16 (ChainerCV's ``VGG16RoIHead``)."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import backend
from framework.graph.hybridizable import Hybridizable
from framework.links import Chain, Linear


class VGG16RoIHead(Hybridizable, Chain):
    """Classifies regions and regresses their boxes from RoI-pooled features.

    Each region is max-pooled to ``roi_size x roi_size`` (:func:`framework.functions.
    roi_pooling_2d`) and goes through VGG-16's ``fc6`` and ``fc7`` (with ReLU), then
    ``cls_loc`` (four offsets per class) and ``score`` (one score per class).

    :meth:`infer` runs :meth:`classify` (``hybridize()`` makes it a static graph, traced per
    number of regions); its input is what :meth:`indices_and_rois` makes of the regions.

    Args:
        n_class (int): the number of classes, background included.
        roi_size (int): the side of the pooled features.
        spatial_scale (float): the factor from image pixels to feature-map pixels.
        vgg_initialW (callable): the initializer of ``fc6`` and ``fc7``.
        loc_initialW (callable): the initializer of ``cls_loc``.
        score_initialW (callable): the initializer of ``score``.
        in_channels (int): the channels of the feature map (VGG-16's 512).
        n_hidden (int): the outputs of ``fc6`` and ``fc7`` (VGG-16's 4096).
    """

    def __init__(self, n_class: int, roi_size: int, spatial_scale: float,
                 vgg_initialW=None, loc_initialW=None, score_initialW=None,
                 in_channels: int = 512, n_hidden: int = 4096):
        super().__init__()
        with self.init_scope():
            self.fc6 = Linear(in_channels * roi_size * roi_size, n_hidden,
                              initialW=vgg_initialW)
            self.fc7 = Linear(n_hidden, n_hidden, initialW=vgg_initialW)
            self.cls_loc = Linear(n_hidden, n_class * 4, initialW=loc_initialW)
            self.score = Linear(n_hidden, n_class, initialW=score_initialW)
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
        return self.classify(x, self.indices_and_rois(rois, roi_indices))

    @staticmethod
    def indices_and_rois(rois, roi_indices):
        """``(R, 5)`` float32 rows ``(index, x_min, y_min, x_max, y_max)``, what
        :func:`framework.functions.roi_pooling_2d` takes."""
        xp = backend.get_array_module(rois, roi_indices)
        return xp.concatenate((roi_indices[:, None].astype(numpy.float32),
                               rois[:, [1, 0, 3, 2]].astype(numpy.float32)), axis=1)

    def classify(self, x, indices_and_rois):
        """:meth:`forward` given :meth:`indices_and_rois`."""
        pool = F.roi_pooling_2d(x, indices_and_rois, self.roi_size, self.roi_size,
                                self.spatial_scale)
        fc6 = F.relu(self.fc6(pool))
        fc7 = F.relu(self.fc7(fc6))
        return self.cls_loc(fc7), self.score(fc7)

    def hybridized_link(self):
        """:meth:`classify`, which :meth:`infer` runs."""
        return self.classify

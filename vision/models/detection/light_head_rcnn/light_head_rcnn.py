"""Light-Head R-CNN: Faster R-CNN whose extractor gives the RPN and the head features of their
own, with a thin head (ChainerCV's ``LightHeadRCNN``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy

from vision.models.detection.faster_rcnn.faster_rcnn import FasterRCNN
from vision.models.detection.faster_rcnn.utils.suppress_per_class import suppress_per_class


class LightHeadRCNN(FasterRCNN):
    """Light-Head R-CNN (Li et al., "Light-Head R-CNN: In Defense of Two-Stage Object
    Detector", 2017), from its parts.

    It is :class:`~vision.models.detection.faster_rcnn.FasterRCNN` (the same
    :class:`~vision.models.detection.faster_rcnn.RegionProposalNetwork`, preparation, decoding
    and per-class suppression) except that:

    - ``extractor`` gives two feature maps of the same size, one for the RPN and one for the
      head (ResNet's ``res4`` and ``res5`` in :class:`LightHeadRCNNResNet101`);
    - ``head`` takes the regions as they are: ``head.infer(x, rois, roi_indices)``;
    - :meth:`predict` orders the detections of an image by decreasing score, all classes
      together, and keeps the first :attr:`max_n_predict`; it leaves out boxes of zero height
      or width, which ChainerCV's may return;
    - the presets are ChainerCV's for this model: ``'visualize'`` (``nms_thresh`` 0.5,
      ``score_thresh`` 0.5) and ``'evaluate'`` (0.5, 0.0).

    ``hybridize()`` runs the extractor and the RPN's convolutions as one static graph (traced
    per image size) and the head as another (traced per number of regions).

    Args:
        extractor (Link): images ``(N, 3, H, W)`` to the feature maps of the RPN and of the
            head, ``(N, C, H', W')`` and ``(N, C', H', W')``.
        rpn (RegionProposalNetwork): the proposals, from the first map.
        head (Link): ``head(x, rois, roi_indices)`` gives ``roi_cls_locs``
            ``(R, 4 * n_class)`` and ``roi_scores`` ``(R, n_class)`` from the second map; it
            has ``n_class`` (background included) and ``infer`` (a
            :class:`~framework.graph.hybridizable.Hybridizable`).
        mean (numpy.ndarray): ``(3, 1, 1)`` float32, subtracted from RGB 0-255 images.
        min_size (int): :meth:`prepare` scales the shorter side to this length...
        max_size (int): ...unless the longer side would exceed this one.
        loc_normalize_mean (tuple of float): the means of the head's offsets.
        loc_normalize_std (tuple of float): the deviations of the head's offsets.

    Attributes:
        nms_thresh (float): the IoU at which a detection suppresses another of its class.
        score_thresh (float): the probability a detection must exceed.
        max_n_predict (int): the most detections :meth:`predict` gives for an image (100).
    """

    presets = {'visualize': (0.5, 0.5), 'evaluate': (0.5, 0.0)}

    def __init__(self, extractor, rpn, head, mean: numpy.ndarray, min_size: int = 800,
                 max_size: int = 1333,
                 loc_normalize_mean: Sequence[float] = (0., 0., 0., 0.),
                 loc_normalize_std: Sequence[float] = (0.1, 0.1, 0.2, 0.2)):
        super().__init__(extractor, rpn, head, mean, min_size=min_size, max_size=max_size,
                         loc_normalize_mean=loc_normalize_mean,
                         loc_normalize_std=loc_normalize_std)
        self.max_n_predict = 100

    def forward(self, x, scales: float | Iterable[float] = 1.):
        """Runs the network on prepared images.

        Args:
            x (Variable or array): ``(N, 3, H, W)`` float32, prepared images.
            scales (float or sequence of float): the factor each original image was scaled by.

        Returns:
            tuple: ``(roi_cls_locs, roi_scores, rois, roi_indices)``: Variables
            ``(R, 4 * n_class)`` and ``(R, n_class)``, float32, the head's outputs; arrays
            ``(R, 4)`` float32 (proposals in ``x``'s pixels) and ``(R,)`` int32 (their image).
        """
        rpn_features, roi_features = self.extractor(x)
        _, _, rois, roi_indices, _ = self.rpn(rpn_features, x.shape[2:], scales)
        roi_cls_locs, roi_scores = self.head(roi_features, rois, roi_indices)
        return roi_cls_locs, roi_scores, rois, roi_indices

    def convolve(self, x):
        """The head's feature map and the RPN's ``rpn_locs`` and ``rpn_scores`` (Variables):
        what :meth:`infer` runs."""
        rpn_features, roi_features = self.extractor(x)
        rpn_locs, rpn_scores = self.rpn.forward_conv(rpn_features)
        return roi_features, rpn_locs, rpn_scores

    def _classify(self, h, rois, roi_indices):
        return self.head.infer(h, rois, roi_indices)

    def _suppress(self, cls_bbox: numpy.ndarray, prob: numpy.ndarray
                  ) -> tuple[numpy.ndarray, ...]:
        """The detections of each foreground class above the threshold that survive
        non-maximum suppression among those of their class, by decreasing score (ties in
        reverse order, as ChainerCV's ``argsort()[::-1]``), the first :attr:`max_n_predict`.

        Boxes of zero height or width are no detection: ChainerCV's proposals of this model
        keep them (``min_size`` 0; anchors clipped at the image's edge), and its ``predict``
        may return them; here they are left out before the suppression, where they suppress
        nothing (an IoU of 0 or NaN)."""
        candidate = prob[:, 1:] > self.score_thresh
        fg_bbox = cls_bbox[:, 1:]
        candidate &= (fg_bbox[:, :, 0] < fg_bbox[:, :, 2]) & (fg_bbox[:, :, 1] < fg_bbox[:, :, 3])
        bbox, label, score = suppress_per_class(cls_bbox, prob, candidate, self.nms_thresh)
        order = numpy.argsort(score)[::-1][:self.max_n_predict]
        return bbox[order], label[order], score[order]

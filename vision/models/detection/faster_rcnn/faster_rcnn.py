"""Faster R-CNN: an extractor, a region proposal network and a head (ChainerCV's
``FasterRCNN``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy

import framework.functions as F
from framework import backend
from framework.config import no_backprop_mode, using_config
from framework.graph.hybridizable import Hybridizable
from framework.links import Chain
from vision.models.detection.faster_rcnn.utils.loc2bbox import loc2bbox
from vision.models.detection.faster_rcnn.utils.suppress_per_class import suppress_per_class
from vision.models.detection.threshold_presets import ThresholdPresets
from vision.transforms import resize
from vision.utils.image import as_rgb_or_gray


class FasterRCNN(ThresholdPresets, Hybridizable, Chain):
    """Faster R-CNN (Ren et al., "Faster R-CNN: Towards Real-Time Object Detection with Region
    Proposal Networks", 2015), from its parts.

    ``extractor`` maps a batch of images to a feature map; ``rpn`` (a
    :class:`RegionProposalNetwork`) proposes regions from it; ``head`` (e.g.
    :class:`VGG16RoIHead`) gives each region class scores and, per class, box offsets.
    :meth:`predict` prepares each image (:meth:`prepare`), decodes the offsets of the head
    (:func:`loc2bbox`, after ``loc_normalize_std`` and ``loc_normalize_mean``) into boxes
    clipped to the image, and keeps, class by class, the boxes whose softmax probability
    exceeds :attr:`score_thresh` and that survive non-maximum suppression at
    :attr:`nms_thresh`.

    ``hybridize()`` runs the extractor and the RPN's convolutions as one static graph (traced
    per image size) and the head as another (traced per number of regions); the anchors,
    proposals, decoding and suppression stay eager.

    Args:
        extractor (Link): images ``(N, 3, H, W)`` to a feature map ``(N, C, H', W')``.
        rpn (RegionProposalNetwork): the proposals.
        head (Link): ``head(x, rois, roi_indices)`` gives ``roi_cls_locs``
            ``(R, 4 * n_class)`` and ``roi_scores`` ``(R, n_class)``; it has ``n_class``
            (background included) and, to be hybridized, ``infer`` and ``indices_and_rois``
            as :class:`VGG16RoIHead` has.
        mean (numpy.ndarray): ``(3, 1, 1)`` float32, subtracted from RGB 0-255 images.
        min_size (int): :meth:`prepare` scales the shorter side to this length...
        max_size (int): ...unless the longer side would exceed this one.
        loc_normalize_mean (tuple of float): the means of the head's offsets.
        loc_normalize_std (tuple of float): the deviations of the head's offsets.

    Attributes:
        nms_thresh (float): the IoU at which a detection suppresses another of its class.
        score_thresh (float): the probability a detection must exceed.
    """

    task = 'detection'

    presets = {'visualize': (0.3, 0.7), 'evaluate': (0.3, 0.05)}

    def __init__(self, extractor, rpn, head, mean: numpy.ndarray, min_size: int = 600,
                 max_size: int = 1000,
                 loc_normalize_mean: Sequence[float] = (0., 0., 0., 0.),
                 loc_normalize_std: Sequence[float] = (0.1, 0.1, 0.2, 0.2)):
        super().__init__()
        with self.init_scope():
            self.extractor = extractor
            self.rpn = rpn
            self.head = head
        self.mean = mean
        self.min_size = min_size
        self.max_size = max_size
        self.loc_normalize_mean = loc_normalize_mean
        self.loc_normalize_std = loc_normalize_std
        self.use_preset('visualize')

    @property
    def n_class(self) -> int:
        """The number of classes, background included."""
        return self.head.n_class

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
        h = self.extractor(x)
        _, _, rois, roi_indices, _ = self.rpn(h, x.shape[2:], scales)
        roi_cls_locs, roi_scores = self.head(h, rois, roi_indices)
        return roi_cls_locs, roi_scores, rois, roi_indices

    def convolve(self, x):
        """The feature map and the RPN's ``rpn_locs`` and ``rpn_scores`` (Variables): what
        :meth:`infer` runs."""
        h = self.extractor(x)
        rpn_locs, rpn_scores = self.rpn.forward_conv(h)
        return h, rpn_locs, rpn_scores

    def hybridized_link(self):
        """:meth:`convolve`, which :meth:`infer` runs."""
        return self.convolve

    def prepare(self, img: numpy.ndarray) -> numpy.ndarray:
        """Scales an image so that its shorter side is :attr:`min_size` unless its longer side
        would then exceed :attr:`max_size` (then the longer side is :attr:`max_size`; a side
        that would shrink below one pixel keeps one), and subtracts the mean.

        Args:
            img (numpy.ndarray): ``(3, H, W)`` or ``(1, H, W)`` float32, RGB 0-255 (a
                grayscale image becomes three equal channels, as the mean's broadcast makes it
                in ChainerCV).

        Returns:
            numpy.ndarray: ``(3, H', W')`` float32.
        """
        _, H, W = img.shape
        scale = self.min_size / min(H, W)
        if scale * max(H, W) > self.max_size:
            scale = self.max_size / max(H, W)
        img = resize(img, (max(int(H * scale), 1), max(int(W * scale), 1)))
        return (img - self.mean).astype(numpy.float32, copy=False)

    def predict(self, imgs: Iterable[numpy.ndarray]) -> tuple[list, list, list]:
        """Detects objects in images, one image at a time.

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB (``C = 3``) or
                grayscale (``C = 1``), values 0-255, any real dtype, of any size.

        Returns:
            tuple of three lists, one entry per image:

            - **bboxes**: float32 ``(R, 4)``, each ``(y_min, x_min, y_max, x_max)`` in the
              input image's pixels;
            - **labels**: int32 ``(R,)`` in ``[0, n_class - 2]`` (the background is not a
              label);
            - **scores**: float32 ``(R,)``, the class probabilities.

            Detections are ordered by label, then by decreasing score; an image without
            detection gives arrays of shapes ``(0, 4)`` and ``(0,)``.

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels.
            TypeError: an image is not a real array.
        """
        bboxes, labels, scores = [], [], []
        for i, img in enumerate(imgs):
            img = as_rgb_or_gray(f'{type(self).__name__}.predict', f'imgs[{i}]', img)
            bbox, label, score = self._detect(img)
            bboxes.append(bbox)
            labels.append(label)
            scores.append(score)
        return bboxes, labels, scores

    def _detect(self, img: numpy.ndarray) -> tuple[numpy.ndarray, ...]:
        size = img.shape[1:]
        x = self.xp.asarray(self.prepare(img)[None])
        scale = x.shape[3] / size[1]
        with using_config('train', False), no_backprop_mode():
            h, rpn_locs, rpn_scores = self.infer(x)
            rois, roi_indices, _ = self.rpn.propose(rpn_locs.array, rpn_scores.array,
                                                    h.shape[2:], x.shape[2:], scale)
            roi_cls_locs, roi_scores = self._classify(h, rois, roi_indices)
            prob = F.softmax(roi_scores).array
        cls_bbox = self._decode(roi_cls_locs.array, rois / scale, size)
        return self._suppress(backend.to_cpu(cls_bbox), backend.to_cpu(prob))

    def _classify(self, h, rois, roi_indices):
        """The head's ``roi_cls_locs`` and ``roi_scores`` in inference (:meth:`infer` of the
        head on :meth:`~VGG16RoIHead.indices_and_rois`; a head that takes the regions as they
        are overrides it)."""
        return self.head.infer(h, self.head.indices_and_rois(rois, roi_indices))

    def _decode(self, roi_cls_loc, roi, size: tuple[int, int]):
        """``(R, n_class, 4)`` boxes of each class in the input image, clipped to it."""
        xp = self.xp
        n_class = self.n_class
        mean = xp.asarray(self.loc_normalize_mean, numpy.float32)
        std = xp.asarray(self.loc_normalize_std, numpy.float32)
        roi_cls_loc = (roi_cls_loc.reshape((-1, n_class, 4)) * std + mean).astype(numpy.float32)
        roi = xp.broadcast_to(roi[:, None], roi_cls_loc.shape)
        cls_bbox = loc2bbox(roi.reshape((-1, 4)), roi_cls_loc.reshape((-1, 4)))
        cls_bbox = cls_bbox.reshape((-1, n_class, 4))
        cls_bbox[:, :, 0::2] = xp.clip(cls_bbox[:, :, 0::2], 0, size[0])
        cls_bbox[:, :, 1::2] = xp.clip(cls_bbox[:, :, 1::2], 0, size[1])
        return cls_bbox

    def _suppress(self, cls_bbox: numpy.ndarray, prob: numpy.ndarray
                  ) -> tuple[numpy.ndarray, ...]:
        """The detections of each foreground class above the threshold that survive
        non-maximum suppression among those of their class."""
        return suppress_per_class(cls_bbox, prob, prob[:, 1:] > self.score_thresh,
                                  self.nms_thresh)

"""FCIS: an extractor, a region proposal network and a position-sensitive head (ChainerCV's
``FCIS``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy

import framework.functions as F
from framework import backend
from framework.config import no_backprop_mode, using_config
from framework.graph.hybridizable import Hybridizable
from framework.links import Chain
from vision.models.instance.fcis.mask_voting import mask_voting
from vision.transforms import resize
from vision.utils.image import as_rgb_or_gray


class FCIS(Hybridizable, Chain):
    """Fully convolutional instance-aware semantic segmentation (Li et al., "Fully
    Convolutional Instance-aware Semantic Segmentation", 2017), from its parts.

    ``extractor`` maps a batch of images to two feature maps, the RPN's and the head's;
    ``rpn`` (a :class:`~vision.models.detection.faster_rcnn.RegionProposalNetwork`) proposes
    regions from the first; ``head`` (e.g. :class:`FCISResNet101Head`) gives each region the
    inside and outside scores of its mask, class-agnostic box offsets and class scores from
    the second. :meth:`predict` prepares each image (:meth:`prepare`), drops the regions
    smaller than :attr:`min_drop_size` on either side, and merges the masks of the rest by
    :func:`mask_voting` (with :attr:`score_thresh`, :attr:`nms_thresh`,
    :attr:`mask_merge_thresh`, :attr:`binary_thresh` and :attr:`limit`; see
    :meth:`use_preset`); each merged mask, resized to its box, is the object where its
    probability exceeds :attr:`binary_thresh`.

    ``hybridize()`` runs the extractor and the convolutions of the RPN and of the head as one
    static graph (traced per image size); the proposals, the position-sensitive pooling and
    mask voting stay eager.

    Args:
        extractor (Link): images ``(N, 3, H, W)`` to ``(rpn_features, roi_features)``.
        rpn (RegionProposalNetwork): the proposals.
        head (Link): ``head(x, rois, roi_indices, img_size)`` gives ``roi_ag_seg_scores``,
            ``roi_ag_locs``, ``roi_cls_scores``, ``rois`` and ``roi_indices``; it has
            ``n_class`` (background included), ``convolve`` and ``pool`` as
            :class:`FCISResNet101Head` has.
        mean (numpy.ndarray): ``(3, 1, 1)`` float32, subtracted from RGB 0-255 images.
        min_size (int): :meth:`prepare` scales the shorter side to this length...
        max_size (int): ...unless the longer side would exceed this one.
        loc_normalize_mean (tuple of float): the means of the head's offsets.
        loc_normalize_std (tuple of float): the deviations of the head's offsets.

    Attributes:
        nms_thresh (float): the IoU at which a region suppresses another of its class.
        score_thresh (float): the least probability of a detection.
        mask_merge_thresh (float): the least IoU of a region that votes for a mask.
        binary_thresh (float): the threshold of mask probabilities and votes.
        limit (int): the most detections per image.
        min_drop_size (float): the least side of a region, in prepared pixels.
    """

    task = 'instance_segmentation'

    #: preset name -> the values :meth:`use_preset` sets
    presets = {
        'visualize': {'nms_thresh': 0.3, 'score_thresh': 0.7, 'mask_merge_thresh': 0.5,
                      'binary_thresh': 0.4, 'limit': 100, 'min_drop_size': 16},
        'evaluate': {'nms_thresh': 0.3, 'score_thresh': 1e-3, 'mask_merge_thresh': 0.5,
                     'binary_thresh': 0.4, 'limit': 100, 'min_drop_size': 16},
        'coco_evaluate': {'nms_thresh': 0.3, 'score_thresh': 1e-3, 'mask_merge_thresh': 0.5,
                          'binary_thresh': 0.4, 'limit': 100, 'min_drop_size': 2},
    }

    def __init__(self, extractor, rpn, head, mean: numpy.ndarray, min_size: int,
                 max_size: int, loc_normalize_mean: Sequence[float],
                 loc_normalize_std: Sequence[float]):
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

    def forward(self, x, scales: float | Iterable[float] | None = None):
        """Runs the network on prepared images.

        Args:
            x (Variable or array): ``(N, 3, H, W)`` float32, prepared images.
            scales (float, sequence of float or None): the factor each original image was
                scaled by (None: 1), which scales the RPN's least proposal.

        Returns:
            tuple: ``(roi_ag_seg_scores, roi_ag_locs, roi_cls_scores, rois, roi_indices)``:
            Variables ``(R, 2, RH, RW)``, ``(R, 2, 4)`` and ``(R, n_class)``, float32, the
            head's outputs; arrays ``(R, 4)`` float32 (regions in ``x``'s pixels) and ``(R,)``
            int32 (their image).
        """
        img_size = x.shape[2:]
        rpn_features, roi_features = self.extractor(x)
        _, _, rois, roi_indices, _ = self.rpn(rpn_features, img_size, scales)
        return self.head(roi_features, rois, roi_indices, img_size)

    def convolve(self, x):
        """The RPN's ``rpn_locs`` and ``rpn_scores`` and the head's score maps ``h_cls_seg``
        and ``h_ag_loc`` (Variables): what :meth:`infer` runs."""
        rpn_features, roi_features = self.extractor(x)
        rpn_locs, rpn_scores = self.rpn.forward_conv(rpn_features)
        h_cls_seg, h_ag_loc = self.head.convolve(roi_features)
        return rpn_locs, rpn_scores, h_cls_seg, h_ag_loc

    def hybridized_link(self):
        """:meth:`convolve`, which :meth:`infer` runs."""
        return self.convolve

    def prepare(self, img: numpy.ndarray) -> numpy.ndarray:
        """Scales an image so that its shorter side is :attr:`min_size` unless its longer side
        would then exceed :attr:`max_size` (then the longer side is :attr:`max_size`; a side
        that would shrink below one pixel keeps one), and subtracts the mean.

        Args:
            img (numpy.ndarray): ``(3, H, W)`` or ``(1, H, W)`` float32, RGB 0-255.

        Returns:
            numpy.ndarray: ``(3, H', W')`` float32.
        """
        _, H, W = img.shape
        scale = self.min_size / min(H, W)
        if scale * max(H, W) > self.max_size:
            scale = self.max_size / max(H, W)
        img = resize(img, (max(int(H * scale), 1), max(int(W * scale), 1)))
        return (img - self.mean).astype(numpy.float32, copy=False)

    def use_preset(self, preset: str) -> None:
        """Sets :attr:`nms_thresh`, :attr:`score_thresh`, :attr:`mask_merge_thresh`,
        :attr:`binary_thresh`, :attr:`limit` and :attr:`min_drop_size` to those of a preset of
        :attr:`presets`: ``'visualize'`` (few, confident objects), ``'evaluate'`` (many, for
        mAP) or ``'coco_evaluate'`` (many, small regions kept).

        Raises:
            ValueError: ``preset`` is not one of :attr:`presets`.
        """
        if preset not in self.presets:
            raise ValueError(f'{type(self).__name__}.use_preset: preset must be '
                             f"{' or '.join(map(repr, self.presets))}, but got {preset!r}")
        for name, value in self.presets[preset].items():
            setattr(self, name, value)

    def predict(self, imgs: Iterable[numpy.ndarray]) -> tuple[list, list, list]:
        """Segments the objects of images, one image at a time.

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB (``C = 3``) or
                grayscale (``C = 1``), values 0-255, any real dtype, of any size.

        Returns:
            tuple of three lists, one entry per image:

            - **masks**: bool ``(R, H, W)``, the mask of each object at the image's size;
            - **labels**: int32 ``(R,)`` in ``[0, n_class - 2]``;
            - **scores**: float32 ``(R,)``, the class probabilities.

            Objects are ordered by label, then by decreasing score; an image without objects
            gives arrays of shapes ``(0, H, W)`` and ``(0,)``.

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels.
            TypeError: an image is not a real array.
        """
        masks, labels, scores = [], [], []
        for i, img in enumerate(imgs):
            img = as_rgb_or_gray(f'{type(self).__name__}.predict', f'imgs[{i}]', img)
            mask, label, score = self._segment(img)
            masks.append(mask)
            labels.append(label)
            scores.append(score)
        return masks, labels, scores

    def _segment(self, img: numpy.ndarray) -> tuple[numpy.ndarray, ...]:
        size = img.shape[1:]
        x = self.xp.asarray(self.prepare(img)[None])
        scale = x.shape[3] / size[1]
        seg_prob, cls_prob, bbox = self._score_regions(x, scale)
        height, width = bbox[:, 2] - bbox[:, 0], bbox[:, 3] - bbox[:, 1]
        keep = (height >= self.min_drop_size) & (width >= self.min_drop_size)
        bbox = bbox[keep] / numpy.float32(scale)
        bbox[:, 0::2] = numpy.clip(bbox[:, 0::2], 0, size[0])
        bbox[:, 1::2] = numpy.clip(bbox[:, 1::2], 0, size[1])
        seg_prob, bbox, label, score = mask_voting(
            seg_prob[keep], bbox, cls_prob[keep], size, self.score_thresh, self.nms_thresh,
            self.mask_merge_thresh, self.binary_thresh, limit=self.limit)
        return self._paste(seg_prob, bbox, size), label, score

    def _score_regions(self, x, scale: float) -> tuple[numpy.ndarray, ...]:
        """The regions of one prepared image: their inside probabilities ``(R, RH, RW)``,
        class probabilities ``(R, n_class)`` and boxes ``(R, 4)`` in prepared pixels, on the
        CPU."""
        with using_config('train', False), no_backprop_mode():
            rpn_locs, rpn_scores, h_cls_seg, h_ag_loc = self.infer(x)
            rois, roi_indices, _ = self.rpn.propose(rpn_locs.array, rpn_scores.array,
                                                    h_cls_seg.shape[2:], x.shape[2:], scale)
            roi_ag_seg_scores, _, roi_cls_scores, rois, _ = self.head.pool(
                h_cls_seg, h_ag_loc, rois, roi_indices, x.shape[2:])
            seg_prob = F.softmax(roi_ag_seg_scores).array[:, 1]
            cls_prob = F.softmax(roi_cls_scores).array
        return backend.to_cpu(seg_prob), backend.to_cpu(cls_prob), backend.to_cpu(rois)

    def _paste(self, seg_prob: numpy.ndarray, bbox: numpy.ndarray,
               size: tuple[int, int]) -> numpy.ndarray:
        """The masks ``(R, H, W)`` bool of mask probabilities resized to their boxes."""
        masks = numpy.zeros((len(seg_prob), *size), dtype=bool)
        for mask, prob, bb in zip(masks, seg_prob, bbox):
            y_min, x_min, y_max, x_max = numpy.round(bb).astype(numpy.int32)
            if y_max > y_min and x_max > x_min:
                prob = resize(prob[None], (y_max - y_min, x_max - x_min))[0]
                mask[y_min:y_max, x_min:x_max] = prob > self.binary_thresh
        return masks

"""Faster R-CNN on a feature pyramid (ChainerCV's ``fpn.FasterRCNN``)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy

import framework.functions as F
from framework import backend
from framework.config import no_backprop_mode, using_config
from framework.graph.hybridizable import Hybridizable
from framework.links import Chain
from vision.models.detection.threshold_presets import ThresholdPresets
from vision.transforms import resize
from vision.utils.image import as_rgb_or_gray


class FasterRCNN(ThresholdPresets, Hybridizable, Chain):
    """Faster R-CNN with a Feature Pyramid Network (Lin et al., 2017), from its parts.

    ``extractor`` (e.g. :class:`FPN`) maps images to a pyramid of feature maps; ``rpn`` (an
    :class:`RPN`) proposes regions on every level; ``bbox_head`` (a :class:`BboxHead`) assigns
    each region a level by its size, pools it there and gives it class logits and, per class,
    box offsets. :meth:`predict` prepares each image (:meth:`prepare`) and decodes the
    detections (:meth:`BboxHead.decode`): boxes clipped to the image, class by class those of
    probability at least :attr:`score_thresh` that survive non-maximum suppression at
    :attr:`nms_thresh`.

    ChainerCV's ``return_values`` and ``mask_head`` are left out: this model returns boxes;
    Mask R-CNN, which returns masks, adds its mask head to the same parts.

    ``hybridize()`` runs the extractor and the RPN's convolutions as one static graph (traced
    per image size) and the head's fully connected layers as another (traced per number of
    regions); the anchors, proposals, RoI align, decoding and suppression stay eager.

    Args:
        extractor (Link): images ``(N, 3, H, W)`` (``H`` and ``W`` multiples of
            :attr:`stride`) to a list of feature maps; it has ``scales`` and ``mean``
            ``(3, 1, 1)``.
        rpn (RPN): the proposals.
        bbox_head (BboxHead): the classification and regression of the proposals.
        min_size (int): :meth:`prepare` scales the shorter side to this length...
        max_size (int): ...unless the longer side would exceed this one.
        antialias (bool): resize with Pillow's bilinear filter, which widens when it shrinks
            (ChainerCV without OpenCV); False for the bilinear interpolation of the four
            nearest pixels (:func:`framework.functions.resize_images` with
            ``align_corners=False``: torchvision's ``interpolate``, OpenCV's
            ``INTER_LINEAR``).
        per_axis_rescale (bool): decode and clip the detections in the resized image, then
            scale each axis by the original side over the resized one (in float32:
            torchvision's ``transform.postprocess``), rather than decode them from the
            regions divided by the image's scale and clip them to the original image
            (ChainerCV).
        min_bbox_size (float): detections narrower or lower than this, in the frame where
            they are decoded, are dropped (torchvision's ``1e-2``); those of no area always
            are.
        detections_per_img (int or None): the most detections of an image, the best-scored
            of all classes (torchvision: 100); None (ChainerCV) for all.

    Attributes:
        nms_thresh (float): the IoU at which a detection suppresses another of its class.
        score_thresh (float): the least probability of a detection.
        stride (int): the sides of the prepared images are multiples of it.
    """

    task = 'detection'
    stride = 32
    presets = {'visualize': (0.5, 0.7), 'evaluate': (0.5, 0.05)}

    def __init__(self, extractor, rpn, bbox_head, min_size: int = 800, max_size: int = 1333,
                 *, antialias: bool = True, per_axis_rescale: bool = False,
                 min_bbox_size: float = 0., detections_per_img: int | None = None):
        super().__init__()
        with self.init_scope():
            self.extractor = extractor
            self.rpn = rpn
            self.bbox_head = bbox_head
        self.min_size = min_size
        self.max_size = max_size
        self.antialias = antialias
        self.per_axis_rescale = per_axis_rescale
        self.min_bbox_size = float(min_bbox_size)
        self.detections_per_img = detections_per_img
        self.use_preset('visualize')

    @property
    def n_class(self) -> int:
        """The number of classes, background included."""
        return self.bbox_head.n_class

    def forward(self, x, image_sizes=None):
        """The pyramid and the proposals of prepared images (ChainerCV's ``forward``).

        Args:
            x (Variable or array): ``(N, 3, H, W)`` float32, from :meth:`prepare`.
            image_sizes (sequence of pairs of int or None): ``(H_i, W_i)`` of each image as
                resized (:meth:`resized_size`); needed by an RPN with ``clip_to_image``.

        Returns:
            tuple: ``hs`` (list of Variables ``(N, C, H_l, W_l)``, the levels), ``rois``
            ``(R, 4)`` float32 and ``roi_indices`` ``(R,)`` int32 (arrays, the proposals in
            ``x``'s pixels, as :meth:`RPN.decode` gives them).
        """
        hs, locs, confs = self._split(self.convolve(x))
        anchors = self.rpn.anchors((h.shape[2:] for h in hs), x.shape[2:])
        rois, roi_indices = self.rpn.decode(locs, confs, anchors, x.shape, image_sizes)
        return hs, rois, roi_indices

    def convolve(self, x) -> tuple:
        """The levels, then the RPN's ``locs`` of each level, then its ``confs`` (Variables,
        in one flat tuple): what :meth:`infer` runs."""
        hs = self.extractor(x)
        locs, confs = self.rpn(hs)
        return (*hs, *locs, *confs)

    def hybridized_link(self):
        """:meth:`convolve`, which :meth:`infer` runs."""
        return self.convolve

    def _split(self, outputs: tuple) -> tuple[list, list, list]:
        """:meth:`convolve`'s outputs as ``hs``, ``locs`` and ``confs``."""
        n = len(outputs) // 3
        return list(outputs[:n]), list(outputs[n:2 * n]), list(outputs[2 * n:])

    def prepare(self, imgs: Iterable[numpy.ndarray]) -> tuple[numpy.ndarray, list[float]]:
        """Scales each image so that its shorter side is :attr:`min_size` unless its longer side
        would then exceed :attr:`max_size` (then the longer side is :attr:`max_size`; a side
        that would shrink below one pixel keeps one), subtracts the mean and pads the images
        with zeros at the bottom and right to the largest size, rounded up to a multiple of
        :attr:`stride` (ChainerCV's ``prepare``).

        Args:
            imgs (iterable of numpy.ndarray): ``(3, H, W)`` or ``(1, H, W)`` float32, RGB
                0-255 (a grayscale image becomes three equal channels).

        Returns:
            tuple: ``x`` ``(N, 3, H', W')`` float32 (a NumPy array) and ``scales``, the factor
            each image was scaled by.
        """
        mean = self.extractor.mean
        scales, resized = [], []
        for img in imgs:
            scale, size = self.resized_size(img.shape[1:])
            if self.antialias:
                img = resize(img, size)
            else:
                img = F.resize_images(numpy.asarray(img, numpy.float32)[None], size,
                                      align_corners=False).array[0]
            resized.append((img - mean).astype(numpy.float32, copy=False))
            scales.append(scale)
        return pad_images(resized, self.stride), scales

    def resized_size(self, size: tuple[int, int]) -> tuple[float, tuple[int, int]]:
        """The scale of an image of ``size`` ``(H, W)`` and its size once :meth:`prepare`
        resized it (before padding)."""
        H, W = size
        scale = self.min_size / min(H, W)
        if scale * max(H, W) > self.max_size:
            scale = self.max_size / max(H, W)
        return scale, (max(int(H * scale), 1), max(int(W * scale), 1))

    def predict(self, imgs: Iterable[numpy.ndarray]) -> tuple[list, list, list]:
        """Detects objects in images, one image at a time (so that an image's detections do
        not depend on the others' sizes, as they do through the padding in ChainerCV).

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB (``C = 3``) or
                grayscale (``C = 1``), values 0-255, any real dtype, of any size.

        Returns:
            tuple of three lists, one entry per image:

            - **bboxes**: float32 ``(R, 4)``, each ``(y_min, x_min, y_max, x_max)`` in the
              input image's pixels;
            - **labels**: int32 ``(R,)`` in ``[0, n_class - 2]``;
            - **scores**: float32 ``(R,)``, the class probabilities.

            Detections are ordered by label, then by decreasing score; an image without
            detection gives arrays of shapes ``(0, 4)`` and ``(0,)``.

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels, or has no pixel.
            TypeError: an image is not a real array.
        """
        bboxes, labels, scores = [], [], []
        for i, img in enumerate(imgs):
            _, _, bbox, label, score = self._detect(self._check_image(i, img))
            bboxes.append(backend.to_cpu(bbox))
            labels.append(backend.to_cpu(label))
            scores.append(backend.to_cpu(score))
        return bboxes, labels, scores

    def _check_image(self, i: int, img) -> numpy.ndarray:
        """``imgs[i]`` of :meth:`predict` as an image of 1 or 3 channels, or the error."""
        return as_rgb_or_gray(f'{type(self).__name__}.predict', f'imgs[{i}]', img)

    def _detect(self, img: numpy.ndarray) -> tuple:
        """The levels, the scale and the detections of one image: ``(hs, scale, bbox, label,
        score)``, the detections on the model's device (what a mask head starts from)."""
        x, scales = self.prepare([img])
        x = self.xp.asarray(x)
        resized = [self.resized_size(img.shape[1:])[1]]
        with using_config('train', False), no_backprop_mode():
            hs, locs, confs = self._split(self.infer(x))
            anchors = self.rpn.anchors((h.shape[2:] for h in hs), x.shape[2:])
            rois, roi_indices = self.rpn.decode(locs, confs, anchors, x.shape, resized)
            rois, roi_indices = self.bbox_head.distribute(rois, roi_indices)
            pooled = self.bbox_head.pool(hs, rois, roi_indices)
            head_locs, head_confs = self.bbox_head.infer(pooled)
        bboxes, labels, scores = self.bbox_head.decode(
            rois, roi_indices, head_locs, head_confs, scales, [img.shape[1:]],
            self.nms_thresh, self.score_thresh,
            resized_sizes=resized if self.per_axis_rescale else None,
            min_size=self.min_bbox_size, limit=self.detections_per_img)
        return hs, scales[0], bboxes[0], labels[0], scores[0]


def pad_images(imgs, stride: int):
    """Stacks images, padded with zeros at the bottom and right to the largest height and width
    among them, each rounded up to a multiple of ``stride``.

    Args:
        imgs (sequence of arrays): ``(C, H, W)`` float32, of one array module.
        stride (int): the multiple.

    Returns:
        array: ``(N, C, H', W')`` float32 (``(0, 3, stride, stride)`` without images).
    """
    if len(imgs) == 0:
        return numpy.zeros((0, 3, stride, stride), numpy.float32)
    xp = backend.get_array_module(*imgs)
    size = numpy.max([img.shape[1:] for img in imgs], axis=0)
    size = -(-size // stride) * stride
    x = xp.zeros((len(imgs), imgs[0].shape[0], *size), numpy.float32)
    for i, img in enumerate(imgs):
        x[i, :, :img.shape[1], :img.shape[2]] = img
    return x

"""SSD: the single-shot detector, an extractor, a multibox head and a box coder."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy

import framework.functions as F
from framework import backend
from framework.engine import parallel_map
from framework.graph.hybridizable import Hybridizable
from framework.links.link import Chain
from vision.models.detection.ssd.multibox_coder import MultiboxCoder
from vision.models.detection.threshold_presets import ThresholdPresets
from vision.transforms import resize
from vision.utils.image import as_rgb_or_gray


class SSD(ThresholdPresets, Hybridizable, Chain):
    """Single Shot MultiBox Detector (Liu et al., "SSD: Single Shot MultiBox Detector", ECCV
    2016), ChainerCV's ``SSD``: the base of :class:`~vision.models.SSD300` and
    :class:`~vision.models.SSD512`.

    Calling the link gives the raw outputs (for training); :meth:`predict` resizes the images
    to ``insize``, runs the network through :meth:`infer` (a static graph after
    ``hybridize()``), decodes and suppresses (eagerly).

    Args:
        extractor (Link): gives the feature maps of a batch ``(B, 3, insize, insize)``; has
            ``insize`` (int) and ``grids`` (the side of each feature map).
        multibox (Multibox): gives ``mb_locs`` and ``mb_confs`` from the feature maps; has
            ``n_class`` (background included) and ``aspect_ratios``.
        steps (sequence of float): the distance between default box centres of each feature
            map, in input pixels.
        sizes (sequence of float): the sizes of the default boxes, ``len(grids) + 1``.
        variance (tuple of two floats): the scales of the box encoding (see
            :class:`MultiboxCoder`).
        mean (array, sequence or float): ``(3, 1, 1)`` or ``(3,)``, RGB, subtracted from the
            0-255 images.
        clip_default_bbox (bool): cut the default boxes' heights and widths at ``insize``
            (torchvision's ``DefaultBoxGenerator(clip=True)``); ChainerCV does not.
        bbox_xform_clip (float or None): clamp the decoded log-ratios of sizes at it (see
            :class:`MultiboxCoder`); None (ChainerCV) for no clamp.
        clip_bbox (bool): clip the decoded boxes to the input before the suppression
            (torchvision); ChainerCV does not.
        topk_candidates (int or None): the most boxes of a class that go into the
            suppression (torchvision: 400); None (ChainerCV) for all.
        detections_per_img (int or None): the most detections of an image (torchvision:
            200); None (ChainerCV) for all.
        antialias (bool): resize the images with Pillow's bilinear filter, which widens
            when it shrinks (ChainerCV's default backend); False for the bilinear
            interpolation of the four nearest pixels (:func:`framework.functions.
            resize_images` with ``align_corners=False``: OpenCV's ``INTER_LINEAR``,
            torchvision's ``interpolate``).

    Attributes:
        coder (MultiboxCoder): the default boxes and the box encoding.
        nms_thresh (float or None): the IoU at which a detection suppresses another of its
            class (set by :meth:`use_preset`, or directly).
        score_thresh (float): the least score of a detection (set by :meth:`use_preset`, or
            directly).
        mean (numpy.ndarray): float32 ``(3, 1, 1)``.
        clip_bbox, topk_candidates, detections_per_img, antialias: see above.
    """

    task = 'detection'

    presets = {'visualize': (0.45, 0.6), 'evaluate': (0.45, 0.01)}

    def __init__(self, extractor, multibox, steps: Sequence[float], sizes: Sequence[float],
                 variance: tuple[float, float] = (0.1, 0.2), mean=0, *,
                 clip_default_bbox: bool = False, bbox_xform_clip: float | None = None,
                 clip_bbox: bool = False, topk_candidates: int | None = None,
                 detections_per_img: int | None = None, antialias: bool = True):
        super().__init__()
        mean = numpy.asarray(mean, numpy.float32)
        self.mean = numpy.broadcast_to(mean.reshape(-1, 1, 1) if mean.ndim <= 1 else mean,
                                       (3, 1, 1)).copy()
        self.use_preset('visualize')
        self.clip_bbox = clip_bbox
        self.topk_candidates = topk_candidates
        self.detections_per_img = detections_per_img
        self.antialias = antialias
        with self.init_scope():
            self.extractor = extractor
            self.multibox = multibox
        self.coder = MultiboxCoder(
            extractor.grids, multibox.aspect_ratios, steps, sizes, variance,
            max_default_size=extractor.insize if clip_default_bbox else None,
            bbox_xform_clip=bbox_xform_clip)

    @property
    def insize(self) -> int:
        """The side of the square the images are resized to."""
        return self.extractor.insize

    @property
    def n_fg_class(self) -> int:
        """The number of foreground classes."""
        return self.multibox.n_class - 1

    def forward(self, x) -> tuple:
        """The offsets and class scores of every default box.

        Args:
            x (Variable or array): float32 ``(B, 3, insize, insize)``, prepared images (RGB,
                resized, mean subtracted).

        Returns:
            tuple of two Variables: ``mb_locs``, float32 ``(B, K, 4)``, and ``mb_confs``,
            float32 ``(B, K, n_fg_class + 1)``, background first; :math:`K` is the number of
            default boxes.
        """
        return self.multibox(self.extractor(x))

    def prepare(self, img: numpy.ndarray) -> numpy.ndarray:
        """An image as the network takes it: resized to ``insize`` (bilinear, see
        ``antialias``), the mean subtracted; a grayscale image is replicated to three channels
        (as subtracting the RGB mean does in ChainerCV).

        Args:
            img (numpy.ndarray): ``(C, H, W)``, ``C`` 1 or 3, RGB 0-255.

        Returns:
            numpy.ndarray: float32 ``(3, insize, insize)``.
        """
        size = (self.insize, self.insize)
        if self.antialias:
            img = resize(img, size)
        else:
            img = F.resize_images(img[None], size, align_corners=False).array[0]
        return img - self.mean

    def predict(self, imgs: Iterable) -> tuple[list, list, list]:
        """Detects objects.

        The network runs on one image at a time (a batch of one, the shape the static graph
        is traced for), so that an image gives the same detections in any batch: with
        batches, float rounding differs with the batch size and may swap boxes of nearly
        tied scores. On the CPU the images run side by side on the engine's workers
        (:func:`~framework.engine.parallel_map`, each on one BLAS thread): 8 images in 2.5-2.7
        against 3.2 s one after another on 2 cores, the same detections.

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB (``C = 3``) or
                grayscale (``C = 1``), values 0-255, of any size and real dtype.

        Returns:
            tuple of three lists, one entry per image:

            - **bboxes**: float32 ``(R, 4)``, ``(y_min, x_min, y_max, x_max)`` in the image's
              pixels;
            - **labels**: int32 ``(R,)``, in ``[0, n_fg_class - 1]``;
            - **scores**: float32 ``(R,)``.

            Ordered by label, then by decreasing score. An image without detections gives
            arrays of zero length of these shapes and dtypes.

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels.
        """
        x, sizes = [], []
        for i, img in enumerate(imgs):
            img = as_rgb_or_gray('SSD.predict', f'imgs[{i}]', img)
            x.append(self.prepare(img))
            sizes.append(img.shape[1:])

        def detect(image):
            img, size = image
            mb_locs, mb_confs = self.infer(self.xp.asarray(img[None]))
            bbox, label, score = self.coder.decode(
                mb_locs.array[0], mb_confs.array[0], self.nms_thresh, self.score_thresh,
                clip_size=self.insize if self.clip_bbox else None,
                topk_candidates=self.topk_candidates,
                detections_per_img=self.detections_per_img)
            scale = numpy.array(size * 2, numpy.float32) / self.insize
            return backend.to_cpu(bbox) * scale, backend.to_cpu(label), backend.to_cpu(score)

        detections = parallel_map(detect, list(zip(x, sizes)), self.device)
        return tuple([d[k] for d in detections] for k in range(3))

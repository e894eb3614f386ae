"""YOLOBase: what YOLOv2 and YOLOv3 share, ChainerCV's ``YOLOBase``: the letterboxed input,
the decoding of the raw outputs into boxes and scores, and ``predict``."""

from __future__ import annotations

from collections.abc import Iterable

import numpy

from framework import backend
from framework.engine import parallel_map
from framework.graph.hybridizable import Hybridizable
from framework.links.link import Chain
from vision.models.detection.threshold_presets import ThresholdPresets
from vision.models.detection.yolo.darknet_weights import stored_count
from vision.transforms import resize_contain
from vision.utils import batched_non_maximum_suppression
from vision.utils.image import as_rgb_or_gray


def check_insize(name: str, insize) -> None:
    """Raises ValueError unless ``insize`` is a positive multiple of 32."""
    if isinstance(insize, bool) or not isinstance(insize, (int, numpy.integer)) \
            or insize < 32 or insize % 32:
        raise ValueError(f'{name}: insize must be a positive multiple of 32 (the stride of '
                         f'the extractor), but got {insize!r}')


class YOLOBase(ThresholdPresets, Hybridizable, Chain):
    """The base of :class:`~vision.models.YOLOv2`, :class:`~vision.models.YOLOv2Tiny` and
    :class:`~vision.models.YOLOv3` (ChainerCV's ``YOLOBase``).

    A subclass has an ``extractor`` (with ``insize``), ``n_fg_class``, a ``forward`` giving
    ``locs``, ``objs`` and ``confs`` and, from :meth:`_set_default_bbox`, the anchors of its
    boxes. Calling the model gives the raw outputs (for training); :meth:`predict` letterboxes
    the images into ``insize`` (:meth:`prepare`), runs the network through :meth:`infer` (a
    static graph after ``hybridize()``), decodes and suppresses (:meth:`decode`).

    Attributes:
        nms_thresh (float): the IoU at which a detection suppresses another of its class (set
            by :meth:`use_preset`, or directly).
        score_thresh (float): the least score of a detection (idem).
    """

    task = 'detection'

    presets = {'visualize': (0.45, 0.5), 'evaluate': (0.45, 0.005)}

    _default_bbox: numpy.ndarray
    _step: numpy.ndarray
    _n_anchors: int
    _anchors_in_cells: bool
    weight_spec = None

    @property
    def insize(self) -> int:
        """The side of the square the images are letterboxed into."""
        return self.extractor.insize

    def _set_default_bbox(self, grids, anchors) -> None:
        """Sets the boxes the outputs are relative to at ``insize`` (:meth:`default_bbox`).

        Args:
            grids (sequence of int): the side of each output map at ``insize``.
            anchors (sequence of sequences of ``(height, width)``): the anchors of each map,
                in cells if ``_anchors_in_cells`` (YOLOv2), else in input pixels (YOLOv3).
        """
        self._strides = tuple(self.insize // grid for grid in grids)
        self._map_anchors = tuple(numpy.asarray(a, numpy.float32).reshape(-1, 2)
                                  for a in anchors)
        self._default_bbox_by_insize = {}
        self._default_bbox, self._step = self.default_bbox()

    def grids(self, insize: int | None = None) -> tuple[int, ...]:
        """The side of each output map for inputs of side ``insize`` (the model's when
        None)."""
        insize = self.insize if insize is None else insize
        return tuple(insize // stride for stride in self._strides)

    def default_bbox(self, insize: int | None = None) -> tuple[numpy.ndarray, numpy.ndarray]:
        """The boxes the outputs are relative to, for inputs of side ``insize`` (the model's
        when None; the network takes any multiple of 32, as multi-scale training feeds it), in
        the order of the outputs: for each map, each cell (row-major), each anchor.

        Returns:
            tuple: float32 ``(K, 4)`` ``(y, x, height, width)``, the cell's corner in cells and
            the anchor's size, and float32 ``(K,)`` the side of each box's cell in pixels;
            made once per side and shared (not to be modified).
        """
        insize = self.insize if insize is None else insize
        found = self._default_bbox_by_insize.get(insize)
        if found is None:
            found = self._default_bbox_by_insize[insize] = self._make_default_bbox(insize)
        return found

    def _make_default_bbox(self, insize: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        default_bbox, step = [], []
        for grid, grid_anchors, stride in zip(self.grids(insize), self._map_anchors,
                                              self._strides):
            v, u = numpy.meshgrid(numpy.arange(grid), numpy.arange(grid), indexing='ij')
            cells = numpy.stack((v.ravel(), u.ravel()), axis=1).astype(numpy.float32)
            default_bbox.append(numpy.concatenate(
                (numpy.repeat(cells, len(grid_anchors), axis=0),
                 numpy.tile(grid_anchors, (len(cells), 1))), axis=1))
            step.append(numpy.full(len(cells) * len(grid_anchors), stride, numpy.float32))
        return numpy.concatenate(default_bbox), numpy.concatenate(step)

    def _resolve_n_fg_class(self, weights, body, head_channels) -> None:
        """Sets ``n_fg_class``: the resolved one, or the one a Darknet file's length fixes.

        Args:
            weights (YOLOWeights): what :func:`resolve_weights` found.
            body (sequence of Link): the links built so far, all but the heads.
            head_channels (sequence of int): the input channels of each head.
        """
        self.n_fg_class = weights.n_fg_class
        if weights.darknet is not None:
            self.n_fg_class = weights.darknet.n_fg_class(
                f'{type(self).__name__}(base_channels={weights.base_channels})',
                stored_count(body), head_channels, self._n_anchors, weights.n_fg_class)

    def _load_weights(self, weights, darknet_order, heads) -> None:
        """Loads the resolved weights, if any.

        Args:
            weights (YOLOWeights): what :func:`resolve_weights` found.
            darknet_order (sequence of Link): the links in the order of a Darknet file.
            heads (sequence of Convolution2D): the convolutions giving the outputs.
        """
        if weights.darknet is not None:
            weights.darknet.load(darknet_order, heads, self.n_fg_class)
        elif weights.pretrained is not None:
            weights.pretrained.load(self)

    def _class_probability(self, conf):
        """The class probabilities of the boxes from their ``conf``, ``(K, n_fg_class)``."""
        raise NotImplementedError

    def decode_bbox(self, loc, insize: int | None = None):
        """The boxes that the offsets of :meth:`forward` give (ChainerCV's decoding, in its
        order of operations): the centre is the cell's corner plus the sigmoid of the offset,
        in cells; the size is the anchor's times the exponential of the offset.

        Args:
            loc (array): float32 ``(K, 4)``, ``(dy, dx, dh, dw)``.
            insize (int): the side of the inputs ``loc`` comes from; the model's when None.

        Returns:
            array: float32 ``(K, 4)``, ``(y_min, x_min, y_max, x_max)`` in input pixels.
        """
        xp = backend.get_array_module(loc)
        default_bbox, step = self.default_bbox(insize)
        default_bbox = xp.asarray(default_bbox)
        step = xp.asarray(step)[:, None]
        centre = default_bbox[:, :2] + 1 / (1 + xp.exp(-loc[:, :2]))
        if not self._anchors_in_cells:
            centre *= step
        size = default_bbox[:, 2:] * xp.exp(loc[:, 2:])
        top_left = centre - size / 2
        bbox = xp.concatenate((top_left, top_left + size), axis=1)
        if self._anchors_in_cells:
            bbox *= step
        return bbox

    def decode(self, loc, obj, conf) -> tuple:
        """The detections of one image in input pixels: every box scores, for each class,
        the sigmoid of its objectness times its class probability; those of at least
        ``score_thresh`` go through non-maximum suppression at ``nms_thresh``, the classes
        apart (ChainerCV's ``_decode``).

        Args:
            loc (array): float32 ``(K, 4)``.
            obj (array): float32 ``(K,)``.
            conf (array): float32 ``(K, n_fg_class)``.

        Returns:
            tuple of three arrays (of ``loc``'s array module): ``bbox``, float32 ``(R, 4)``,
            ``(y_min, x_min, y_max, x_max)`` in input pixels; ``label``, int32 ``(R,)``;
            ``score``, float32 ``(R,)``. Ordered by label, then by decreasing score.
        """
        xp = backend.get_array_module(loc)
        raw_bbox = self.decode_bbox(loc)
        raw_score = (1 / (1 + xp.exp(-obj)))[:, None] * self._class_probability(conf)
        box, label = xp.nonzero(raw_score >= self.score_thresh)
        bbox = raw_bbox[box].astype(numpy.float32)
        score = raw_score[box, label].astype(numpy.float32)
        label = label.astype(numpy.int32)
        if len(score):
            kept = batched_non_maximum_suppression(
                backend.to_cpu(bbox), backend.to_cpu(score), backend.to_cpu(label),
                self.nms_thresh)
        else:
            kept = numpy.zeros(0, numpy.int64)
        kept = xp.asarray(kept[numpy.argsort(backend.to_cpu(label)[kept], kind='stable')])
        return bbox[kept], label[kept], score[kept]

    def prepare(self, img: numpy.ndarray) -> tuple[numpy.ndarray, dict]:
        """An image as the network takes it (ChainerCV's letterbox): values divided by 255,
        shrunk to fit ``insize`` if larger (keeping its aspect ratio; bilinear, Pillow's
        filter), placed at the centre of an ``insize`` square filled with 0.5
        (:func:`vision.transforms.resize_contain`); a grayscale image is replicated to
        three channels.

        Args:
            img (numpy.ndarray): float32 ``(C, H, W)``, ``C`` 1 or 3, RGB 0-255.

        Returns:
            tuple: the prepared image, float32 ``(3, insize, insize)``, and the placement of
            ``resize_contain`` (``y_offset``, ``x_offset``, ``scaled_size``).
        """
        x, param = resize_contain(img / numpy.float32(255), (self.insize, self.insize),
                                  fill=0.5, return_param=True)
        return numpy.broadcast_to(x, (3,) + x.shape[1:]), param

    def predict(self, imgs: Iterable) -> tuple[list, list, list]:
        """Detects objects.

        The network runs on one image at a time (a batch of one, the shape the static graph
        is traced for), so that an image gives the same detections in any batch; on the CPU
        the images run side by side on the engine's workers
        (:func:`~framework.engine.parallel_map`, each on one BLAS thread).

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
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels, or has no pixel.
        """
        prepared = []
        for i, img in enumerate(imgs):
            img = as_rgb_or_gray(f'{type(self).__name__}.predict', f'imgs[{i}]', img)
            prepared.append((*self.prepare(img), img.shape[1:]))

        def detect(item):
            x, param, size = item
            locs, objs, confs = self.infer(self.xp.asarray(x[None]))
            bbox, label, score = self.decode(locs.array[0], objs.array[0], confs.array[0])
            bbox = backend.to_cpu(bbox)
            # ChainerCV maps the boxes back about the centres of the square and of the image.
            scale = numpy.array(size, numpy.float32) / numpy.array(param['scaled_size'])
            half = numpy.array(size, numpy.float32) / 2
            bbox = (bbox - numpy.float32(self.insize / 2)) * numpy.tile(scale, 2) \
                + numpy.tile(half, 2)
            return bbox.astype(numpy.float32), backend.to_cpu(label), backend.to_cpu(score)

        detections = parallel_map(detect, prepared, self.device)
        return tuple([d[k] for d in detections] for k in range(3))

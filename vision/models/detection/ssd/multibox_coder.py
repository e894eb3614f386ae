"""MultiboxCoder: SSD's default boxes, and the encoding of boxes as offsets from them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from framework import backend
from vision.utils import batched_non_maximum_suppression


def default_bbox(grids: Sequence[int], aspect_ratios: Sequence[Sequence[int]],
                 steps: Sequence[float], sizes: Sequence[float],
                 max_size: float | None = None) -> numpy.ndarray:
    """SSD's default boxes, ``(center_y, center_x, height, width)`` in input pixels.

    Feature map ``k`` (``grids[k]`` pixels a side) centres boxes on its pixels, ``steps[k]``
    input pixels apart; each pixel has a square of side ``sizes[k]``, one of side
    ``sqrt(sizes[k] * sizes[k + 1])`` and, for each aspect ratio ``a``, the boxes
    ``(sizes[k] / sqrt(a), sizes[k] * sqrt(a))`` and ``(sizes[k] * sqrt(a),
    sizes[k] / sqrt(a))``.

    Args:
        grids, aspect_ratios, steps, sizes: see :class:`MultiboxCoder`.
        max_size (float or None): the largest height and width of a box: longer sides are
            cut to it, the centre kept (torchvision's ``DefaultBoxGenerator(clip=True)`` cuts
            them at the input's side); None (ChainerCV) to keep them.

    Returns:
        numpy.ndarray: float64 ``(K, 4)``, ordered by feature map, row, column, then box.
    """
    boxes = []
    for k, grid in enumerate(grids):
        s = sizes[k]
        shapes = [(s, s), (numpy.sqrt(s * sizes[k + 1]),) * 2]
        for ar in aspect_ratios[k]:
            shapes += [(s / numpy.sqrt(ar), s * numpy.sqrt(ar)),
                       (s * numpy.sqrt(ar), s / numpy.sqrt(ar))]
        centre = (numpy.arange(grid) + 0.5) * steps[k]
        cy, cx = numpy.meshgrid(centre, centre, indexing='ij')
        centres = numpy.stack((cy.ravel(), cx.ravel()), axis=1)
        shapes = numpy.array(shapes, numpy.float64)
        if max_size is not None:
            shapes = numpy.minimum(shapes, max_size)
        box = numpy.concatenate(numpy.broadcast_arrays(
            centres[:, None, :], shapes[None, :, :]), axis=2)
        boxes.append(box.reshape(-1, 4))
    return numpy.concatenate(boxes, axis=0)


def _corners(box):
    """``(center_y, center_x, height, width)`` to ``(y_min, x_min, y_max, x_max)``."""
    xp = backend.get_array_module(box)
    return xp.concatenate((box[:, :2] - box[:, 2:] / 2, box[:, :2] + box[:, 2:] / 2), axis=1)


def _iou(bbox_a, bbox_b):
    """IoU of every pair of corner boxes ``(N, 4)`` and ``(R, 4)``: ``(N, R)``."""
    xp = backend.get_array_module(bbox_a)
    top_left = xp.maximum(bbox_a[:, None, :2], bbox_b[None, :, :2])
    bottom_right = xp.minimum(bbox_a[:, None, 2:], bbox_b[None, :, 2:])
    intersection = xp.prod(xp.clip(bottom_right - top_left, 0, None), axis=2)
    area_a = xp.prod(bbox_a[:, 2:] - bbox_a[:, :2], axis=1)
    area_b = xp.prod(bbox_b[:, 2:] - bbox_b[:, :2], axis=1)
    return intersection / (area_a[:, None] + area_b[None, :] - intersection)


class MultiboxCoder:
    """Encodes boxes and labels as SSD's targets, and decodes its outputs into detections
    (ChainerCV's ``MultiboxCoder``).

    A box ``b`` assigned to a default box ``m`` (centres ``(b_y, b_x)``, ``(m_y, m_x)``, sizes
    ``(b_h, b_w)``, ``(m_h, m_w)``) is encoded as ``((b_y - m_y) / (m_h v_0), (b_x - m_x) /
    (m_w v_0), log(b_h / m_h) / v_1, log(b_w / m_w) / v_1)`` with ``variance = (v_0, v_1)``.

    The default boxes are computed once, on the host, and copied to the device of the arrays
    given (one copy per device is kept): the coder holds no state to move or serialize.

    Args:
        grids (sequence of int): the side of each feature map.
        aspect_ratios (sequence of sequence of int): the aspect ratios of each feature map's
            boxes (see :func:`default_bbox`).
        steps (sequence of float): the distance between box centres of each feature map, in
            input pixels.
        sizes (sequence of float): the box sizes, one more than ``grids``.
        variance (tuple of two floats): ``(v_0, v_1)`` above.
        max_default_size (float or None): the largest height and width of a default box
            (see :func:`default_bbox`); None (ChainerCV) for no limit.
        bbox_xform_clip (float or None): the largest decoded log-ratio of sizes,
            ``log(b_h / m_h)`` and ``log(b_w / m_w)``: decoding clamps larger ones to it
            (torchvision's ``BoxCoder`` clamps at ``log(1000 / 16)``); None (ChainerCV) for no
            clamp.

    Attributes:
        default_bbox (numpy.ndarray): float64 ``(K, 4)``, ``(center_y, center_x, height,
            width)``.
        variance (tuple of float): see above.
        bbox_xform_clip (float or None): see above.
    """

    def __init__(self, grids: Sequence[int], aspect_ratios: Sequence[Sequence[int]],
                 steps: Sequence[float], sizes: Sequence[float],
                 variance: tuple[float, float], *, max_default_size: float | None = None,
                 bbox_xform_clip: float | None = None):
        for name, value, n in (('aspect_ratios', aspect_ratios, len(grids)),
                               ('steps', steps, len(grids)), ('sizes', sizes, len(grids) + 1)):
            if len(value) != n:
                raise ValueError(f'MultiboxCoder: {name} must have {n} entries (len(grids) = '
                                 f'{len(grids)}), but got {len(value)}')
        self.default_bbox = default_bbox(grids, aspect_ratios, steps, sizes, max_default_size)
        self.variance = tuple(float(v) for v in variance)
        self.bbox_xform_clip = bbox_xform_clip
        self._on_device = {}

    def _default_bbox_like(self, array):
        """The default boxes on the device of ``array``."""
        device = backend.get_device_from_array(array)
        if device not in self._on_device:
            self._on_device[device] = device.send(self.default_bbox)
        return self._on_device[device]

    def encode(self, bbox, label, iou_thresh: float = 0.5) -> tuple:
        """The targets of one image.

        Each ground-truth box first takes the default box it overlaps most (greedily, the
        best pair first), then every default box unassigned whose best IoU is at least
        ``iou_thresh`` takes its best ground-truth box; the others are background.

        Args:
            bbox (array): float ``(R, 4)``, ``(y_min, x_min, y_max, x_max)`` in input pixels.
            label (array): int ``(R,)``, in ``[0, n_fg_class - 1]``.
            iou_thresh (float): the least IoU of a match beyond the first.

        Returns:
            tuple of two arrays: ``mb_loc``, float32 ``(K, 4)``, and ``mb_label``, int32
            ``(K,)``, 0 for background and ``label + 1`` for a match.
        """
        xp = backend.get_array_module(bbox)
        default = self._default_bbox_like(bbox)
        K = len(default)
        if len(bbox) == 0:
            return xp.zeros((K, 4), numpy.float32), xp.zeros(K, numpy.int32)
        bbox = xp.asarray(bbox, numpy.float64)
        iou = _iou(_corners(default), bbox)
        index = xp.full(K, -1, numpy.int64)
        masked = iou.copy()
        for _ in range(len(bbox)):
            best = int(masked.argmax())
            i, j = divmod(best, masked.shape[1])
            if float(masked[i, j]) <= 1e-6:
                break
            index[i] = j
            masked[i, :] = 0
            masked[:, j] = 0
        unassigned = (index < 0) & (iou.max(axis=1) >= iou_thresh)
        index = xp.where(unassigned, iou.argmax(axis=1), index)

        matched = bbox[xp.maximum(index, 0)]
        size = matched[:, 2:] - matched[:, :2]
        centre = matched[:, :2] + size / 2
        v0, v1 = self.variance
        with numpy.errstate(divide='ignore', invalid='ignore'):
            mb_loc = xp.concatenate(((centre - default[:, :2]) / (v0 * default[:, 2:]),
                                     xp.log(size / default[:, 2:]) / v1), axis=1)
        mb_loc = xp.where(index[:, None] >= 0, mb_loc, 0)
        mb_label = xp.where(index >= 0, xp.asarray(label)[xp.maximum(index, 0)] + 1, 0)
        return mb_loc.astype(numpy.float32), mb_label.astype(numpy.int32)

    def decode_bbox(self, mb_loc):
        """The boxes that offsets give.

        Args:
            mb_loc (array): float ``(K, 4)`` or ``(B, K, 4)``.

        Returns:
            array: float64 of the shape of ``mb_loc``, ``(y_min, x_min, y_max, x_max)`` in
            input pixels.
        """
        xp = backend.get_array_module(mb_loc)
        default = self._default_bbox_like(mb_loc)
        v0, v1 = self.variance
        centre = default[:, :2] + mb_loc[..., :2] * v0 * default[:, 2:]
        log_scale = mb_loc[..., 2:] * v1
        if self.bbox_xform_clip is not None:
            log_scale = xp.minimum(log_scale, self.bbox_xform_clip)
        size = default[:, 2:] * xp.exp(log_scale)
        return xp.concatenate((centre - size / 2, centre + size / 2), axis=-1)

    def decode(self, mb_loc, mb_conf, nms_thresh: float | None = 0.45,
               score_thresh: float = 0.6, *, clip_size: float | None = None,
               topk_candidates: int | None = None,
               detections_per_img: int | None = None) -> tuple:
        """The detections of one image.

        The scores are the softmax of ``mb_conf``; for each foreground class, the boxes
        scoring at least ``score_thresh`` (the best ``topk_candidates`` of them) go through
        non-maximum suppression (:func:`vision.utils.batched_non_maximum_suppression`, the
        classes apart), and the best ``detections_per_img`` of all classes are kept. The
        keyword arguments are torchvision's postprocessing; their defaults, ChainerCV's.

        Args:
            mb_loc (array): float ``(K, 4)``, the offsets.
            mb_conf (array): float ``(K, n_fg_class + 1)``, the class scores, background
                first.
            nms_thresh (float or None): the IoU at which a box suppresses another of its
                class; None for no suppression.
            score_thresh (float): the least score of a detection.
            clip_size (float or None): the side of the input: the boxes are clipped to
                ``[0, clip_size]`` before the suppression; None to leave them.
            topk_candidates (int or None): the most boxes of a class that go into the
                suppression, the best scoring; None for all.
            detections_per_img (int or None): the most detections kept, the best scoring of
                all classes; None for all.

        Returns:
            tuple of three arrays (of ``mb_loc``'s array module): ``bbox``, float32
            ``(R, 4)``, ``(y_min, x_min, y_max, x_max)`` in input pixels; ``label``, int32
            ``(R,)``; ``score``, float32 ``(R,)``. Ordered by label, then by decreasing
            score (ChainerCV's order).
        """
        xp = backend.get_array_module(mb_loc)
        mb_bbox = self.decode_bbox(mb_loc)
        if clip_size is not None:
            mb_bbox = xp.clip(mb_bbox, 0, clip_size)
        conf = mb_conf - mb_conf.max(axis=1, keepdims=True)
        mb_score = xp.exp(conf)
        mb_score /= mb_score.sum(axis=1, keepdims=True)
        box, label = xp.nonzero(mb_score[:, 1:] >= score_thresh)
        bbox = mb_bbox[box].astype(numpy.float32)
        score = mb_score[box, label + 1].astype(numpy.float32)
        label = label.astype(numpy.int32)
        if topk_candidates is not None:
            top = _top_of_each_label(backend.to_cpu(score), backend.to_cpu(label),
                                     topk_candidates)
            top = xp.asarray(top)
            bbox, label, score = bbox[top], label[top], score[top]
        if nms_thresh is not None and len(score):
            kept = batched_non_maximum_suppression(
                backend.to_cpu(bbox), backend.to_cpu(score), backend.to_cpu(label), nms_thresh,
                limit=detections_per_img)
        else:
            kept = numpy.argsort(-backend.to_cpu(score), kind='stable')[:detections_per_img]
        kept = kept[numpy.argsort(backend.to_cpu(label)[kept], kind='stable')]
        kept = xp.asarray(kept)
        return bbox[kept], label[kept], score[kept]


def _top_of_each_label(score: numpy.ndarray, label: numpy.ndarray, k: int) -> numpy.ndarray:
    """The indices of the ``k`` best scores of each label, by label then decreasing score."""
    order = numpy.lexsort((-score, label))
    label = label[order]
    first = numpy.searchsorted(label, label)
    return order[numpy.arange(len(order)) - first < k]

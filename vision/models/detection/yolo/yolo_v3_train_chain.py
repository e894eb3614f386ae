"""The loss of YOLOv3 for training (Redmon and Farhadi, 2018; Darknet's ``yolo_layer``), which
ChainerCV does not train: :class:`YOLOv3TrainChain`."""

from __future__ import annotations

import numpy

import framework.functions as F
from framework import backend, reporter
from framework.links import Chain
from vision.utils import bbox_iou


class YOLOv3TrainChain(Chain):
    """Computes the loss of a :class:`~vision.models.YOLOv3` on a batch of letterboxed images.

    Each ground-truth box is assigned to the anchor, of the nine, whose shape overlaps it best
    (centres aligned), in the cell of that anchor's map holding its centre. For the assigned
    boxes the loss counts the offsets of the centre in the cell (sigmoid cross entropy against
    the fractional position), the log-ratios of the size to the anchor's (the absolute error,
    as GluonCV's ``YOLOV3Loss``: Darknet's squared error grows its own gradient with the error,
    and diverged at rates that the absolute error trains at), both weighted by
    ``2 - h w / insize^2`` so that small boxes count more, the objectness (target 1) and each
    class (sigmoid cross entropy against the one-hot label).
    The other boxes count their objectness (target 0), except those whose decoded box
    overlaps a ground-truth box by more than ``ignore_thresh``, which count nothing. The terms
    are summed over the boxes and averaged over the images; each is reported (``loc_loss``,
    ``obj_loss``, ``conf_loss``, ``loss``).

    The images of a batch may have any side that is a multiple of 32 (``insize`` is that
    side): multi-scale training (YOLOv3's, GluonCV's) feeds batches of different sides, whose
    maps and default boxes :meth:`~vision.models.YOLOv3.default_bbox` gives.

    Args:
        model (YOLOv3): the model trained.
        ignore_thresh (float): the IoU with a ground-truth box above which a box that is not
            assigned one is left out of the objectness loss (Darknet's 0.7).
    """

    def __init__(self, model, ignore_thresh: float = 0.7):
        super().__init__()
        with self.init_scope():
            self.model = model
        self.ignore_thresh = ignore_thresh

    def forward(self, imgs, bboxes, labels):
        """The loss of a batch.

        Args:
            imgs (Variable or array): float32 ``(B, 3, insize, insize)``, prepared images.
            bboxes (sequence of arrays): ``B`` float ``(R, 4)``, ``(y_min, x_min, y_max,
                x_max)`` in the prepared images' pixels.
            labels (sequence of arrays): ``B`` int ``(R,)``, in ``[0, n_fg_class - 1]``.

        Returns:
            Variable: the float32 scalar loss.
        """
        insize = imgs.shape[-1]
        if imgs.ndim != 4 or imgs.shape[2] != insize or insize % 32:
            raise ValueError(f'YOLOv3TrainChain: imgs must be (B, 3, S, S) with S a multiple '
                             f'of 32, but got the shape {tuple(imgs.shape)}')
        locs, objs, confs = self.model(imgs)
        targets = self.targets(locs.array, bboxes, labels, insize)
        return self.loss(locs, objs, confs, *targets)

    def targets(self, locs, bboxes, labels, insize: int | None = None) -> tuple:
        """The targets of the outputs of a batch.

        Args:
            locs (array): float32 ``(B, K, 4)``, the offsets the model gave (for the boxes to
                leave out of the objectness loss).
            bboxes, labels: as :meth:`forward` takes them.
            insize (int): the side of the images (multi-scale training feeds several); the
                model's ``insize`` when None.

        Returns:
            tuple of four numpy arrays: ``gt_locs``, float32 ``(B, K, 4)``, the offsets of
            the assigned boxes (centre in the cell, log-ratio of the size); ``weights``,
            float32 ``(B, K)``, ``2 - h w / insize^2`` for the assigned boxes, 0 for the
            others; ``gt_objs``, int32 ``(B, K)``, 1, 0 or -1 (left out); ``gt_confs``, int32
            ``(B, K, n_fg_class)``, the one-hot labels of the assigned boxes, -1 elsewhere.

        Raises:
            ValueError: the lengths of ``bboxes`` and ``labels`` differ from the batch's.
        """
        model = self.model
        locs = backend.to_cpu(locs)
        B, K = locs.shape[:2]
        if len(bboxes) != B or len(labels) != B:
            raise ValueError(f'YOLOv3TrainChain: bboxes and labels must hold one entry per '
                             f'image ({B}), but got {len(bboxes)} and {len(labels)}')
        insize = model.insize if insize is None else insize
        default_bbox, step = model.default_bbox(insize)
        if len(default_bbox) != K:
            raise ValueError(f'YOLOv3TrainChain: locs has {K} boxes, but inputs of side '
                             f'{insize} have {len(default_bbox)}')
        anchors, first = _anchors(model, insize)
        gt_locs = numpy.zeros((B, K, 4), numpy.float32)
        weights = numpy.zeros((B, K), numpy.float32)
        gt_objs = numpy.zeros((B, K), numpy.int32)
        gt_confs = numpy.full((B, K, model.n_fg_class), -1, numpy.int32)
        for b in range(B):
            bbox = numpy.asarray(backend.to_cpu(bboxes[b]), numpy.float32).reshape(-1, 4)
            label = numpy.asarray(backend.to_cpu(labels[b])).reshape(-1)
            if not len(bbox):
                continue
            iou = bbox_iou(model.decode_bbox(locs[b], insize), bbox)
            gt_objs[b, iou.max(axis=1) > self.ignore_thresh] = -1
            size = bbox[:, 2:] - bbox[:, :2]
            centre = bbox[:, :2] + size / 2
            inter = numpy.minimum(size[:, None], anchors[None]).prod(axis=2)
            best = (inter / (size.prod(axis=1)[:, None] + anchors.prod(axis=1) - inter)
                    ).argmax(axis=1)
            for r, k in enumerate(best):
                offset, anchor = first[k]
                s = step[offset]
                grid = int(round(insize / s))
                v, u = numpy.clip((centre[r] // s).astype(int), 0, grid - 1)
                i = offset + (v * grid + u) * model._n_anchors + anchor
                gt_locs[b, i, :2] = centre[r] / s - default_bbox[i, :2]
                gt_locs[b, i, 2:] = numpy.log(size[r] / default_bbox[i, 2:])
                weights[b, i] = 2 - size[r].prod() / insize ** 2
                gt_objs[b, i] = 1
                gt_confs[b, i] = 0
                gt_confs[b, i, label[r]] = 1
        return gt_locs, weights, gt_objs, gt_confs

    def loss(self, locs, objs, confs, gt_locs, weights, gt_objs, gt_confs):
        """The loss of the outputs of a batch against their targets (see :meth:`targets`);
        reports its terms.

        Returns:
            Variable: the float32 scalar loss.
        """
        xp = self.xp
        n = locs.shape[0]
        gt_locs, weights = xp.asarray(gt_locs), xp.asarray(weights)[:, :, None]
        centre = locs[:, :, :2]
        loc_loss = (F.sum((F.softplus(centre) - centre * gt_locs[:, :, :2]) * weights)
                    + F.sum(F.absolute(locs[:, :, 2:] - gt_locs[:, :, 2:]) * weights)) / n
        obj_loss = F.sum(F.sigmoid_cross_entropy(objs, xp.asarray(gt_objs), reduce='no')) / n
        conf_loss = F.sum(F.sigmoid_cross_entropy(confs, xp.asarray(gt_confs),
                                                  reduce='no')) / n
        loss = loc_loss + obj_loss + conf_loss
        reporter.report({'loc_loss': loc_loss, 'obj_loss': obj_loss, 'conf_loss': conf_loss,
                         'loss': loss}, self)
        return loss


def _anchors(model, insize: int) -> tuple[numpy.ndarray, list[tuple[int, int]]]:
    """The anchors of every map, ``(A, 2)`` float32 ``(height, width)`` in pixels, and for
    each the index of the first box of its map (for inputs of side ``insize``) and its index
    among the map's anchors."""
    anchors, first = [], []
    offset = 0
    for grid, grid_anchors in zip(model.grids(insize), model._anchors):
        for a, anchor in enumerate(grid_anchors):
            anchors.append(anchor)
            first.append((offset, a))
        offset += grid * grid * len(grid_anchors)
    return numpy.array(anchors, numpy.float32), first

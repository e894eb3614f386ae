"""Mask voting: FCIS's merging of the masks of overlapping regions (ChainerCV's
``mask_voting``)."""

from __future__ import annotations

import numpy

from vision.transforms import resize
from vision.utils import bbox_iou, non_maximum_suppression


def mask_voting(seg_prob: numpy.ndarray, bbox: numpy.ndarray, cls_prob: numpy.ndarray,
                size: tuple[int, int], score_thresh: float, nms_thresh: float,
                mask_merge_thresh: float, binary_thresh: float, limit: int = 100,
                bg_label: int = 0) -> tuple[numpy.ndarray, ...]:
    """Chooses detections among regions and merges the masks of the regions around each.

    For each foreground class, non-maximum suppression at ``nms_thresh`` keeps regions by that
    class's probability (of regions of equal probability, the later one first); of the kept
    ones of all classes, those whose probability reaches both ``score_thresh`` and the
    ``limit``-th best probability are the detections. A detection's
    mask is the vote of every region whose box overlaps its box by an IoU of at least
    ``mask_merge_thresh``: each region's mask, resized to its box (rounded) on the image and
    binarised at ``binary_thresh``, weighs its probability of the class (normalised to sum to
    1); the pixels whose vote reaches ``binary_thresh`` make the merged mask, whose bounding box
    is the detection's box and whose votes within it, resized to the regions' grid and clipped
    to ``[0, 1]``, its probabilities. A detection whose vote reaches ``binary_thresh`` nowhere
    is dropped.

    Args:
        seg_prob (numpy.ndarray): ``(R, RH, RW)`` float32, the mask probabilities of the
            regions.
        bbox (numpy.ndarray): ``(R, 4)`` float32, their boxes in the image's pixels.
        cls_prob (numpy.ndarray): ``(R, n_class)`` float32, their class probabilities,
            background included.
        size (tuple of int): ``(H, W)`` of the image.
        score_thresh (float): the least probability of a detection.
        nms_thresh (float): the IoU at which a region suppresses another of its class.
        mask_merge_thresh (float): the least IoU of a region that votes for a mask.
        binary_thresh (float): the threshold of the mask probabilities and of the votes.
        limit (int): the most detections (more where probabilities tie at the limit).
        bg_label (int): the column of ``cls_prob`` that is the background.

    Returns:
        tuple of four NumPy arrays, ordered by class, then as suppression kept them (by
        decreasing probability):

        - **v_seg_prob**: ``(N, RH, RW)`` float32, the merged mask probabilities;
        - **v_bbox**: ``(N, 4)`` float32, the boxes of the merged masks (integral);
        - **v_label**: ``(N,)`` int32, the classes, ``0 .. n_class - 2`` (the background
          left out);
        - **v_score**: ``(N,)`` float32, the class probabilities.
    """
    seg_size = seg_prob.shape[1:]
    fg_labels = [lb for lb in range(cls_prob.shape[1]) if lb != bg_label]
    kept = []
    last = len(bbox) - 1
    for lb in fg_labels:
        # visited from the last region: ties go to the later one (with FCIS's two passes,
        # the moved region), as ChainerCV's reversed argsort visits them
        keep = last - non_maximum_suppression(bbox[::-1], nms_thresh, cls_prob[::-1, lb])
        kept.append((bbox[keep], cls_prob[keep, lb]))
    scores = numpy.sort(numpy.concatenate([score for _, score in kept] + [numpy.empty(0)]))
    if len(scores) == 0:
        return _empty(seg_size)
    score_thresh = max(scores[::-1][min(len(scores), limit) - 1], score_thresh)

    v_seg_prob, v_bbox, v_label, v_score = [], [], [], []
    for fg, (lb, (bbox_l, score_l)) in enumerate(zip(fg_labels, kept)):
        chosen = score_l >= score_thresh
        for bb, score in zip(bbox_l[chosen], score_l[chosen]):
            voters = numpy.flatnonzero(bbox_iou(bbox, bb[None])[:, 0] >= mask_merge_thresh)
            weight = cls_prob[voters, lb]
            merged = _merge(bbox[voters], seg_prob[voters], weight / weight.sum(), size,
                            binary_thresh)
            if merged is None:
                continue
            vote, box = merged
            v_seg_prob.append(numpy.clip(resize(vote[None], seg_size)[0], 0., 1.))
            v_bbox.append(box)
            v_label.append(fg)
            v_score.append(score)
    if not v_seg_prob:
        return _empty(seg_size)
    return (numpy.array(v_seg_prob, numpy.float32), numpy.array(v_bbox, numpy.float32),
            numpy.array(v_label, numpy.int32), numpy.array(v_score, numpy.float32))


def _merge(bbox: numpy.ndarray, seg_prob: numpy.ndarray, weight: numpy.ndarray,
           size: tuple[int, int], binary_thresh: float):
    """The weighted vote of binarised masks on the image, cut to the bounding box of the
    pixels whose vote reaches ``binary_thresh``, and that box; None if no pixel does."""
    vote = numpy.zeros(size, numpy.float32)
    for bb, prob, w in zip(bbox, seg_prob, weight):
        y_min, x_min, y_max, x_max = numpy.round(bb).astype(numpy.int32)
        if y_max > y_min and x_max > x_min:
            mask = resize(prob[None].astype(numpy.float32, copy=False),
                          (y_max - y_min, x_max - x_min))[0] >= binary_thresh
            vote[y_min:y_max, x_min:x_max] += mask.astype(numpy.float32) * w
    ys, xs = numpy.nonzero(vote >= binary_thresh)
    if len(ys) == 0:
        return None
    y_min, x_min, y_max, x_max = ys.min(), xs.min(), ys.max() + 1, xs.max() + 1
    return vote[y_min:y_max, x_min:x_max], numpy.array([y_min, x_min, y_max, x_max])


def _empty(seg_size: tuple[int, int]) -> tuple[numpy.ndarray, ...]:
    return (numpy.zeros((0, *seg_size), numpy.float32), numpy.zeros((0, 4), numpy.float32),
            numpy.zeros((0,), numpy.int32), numpy.zeros((0,), numpy.float32))

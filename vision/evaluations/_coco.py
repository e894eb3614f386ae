"""COCOeval's matching and accumulation, vectorised with NumPy.

This computes what pycocotools' ``COCOeval.evaluate()`` and ``accumulate()`` compute, with the
same arithmetic, so that the numbers agree to the last bit or nearly so:

* The area ranges and the numbers of detections per image (``maxDets``) are pycocotools'
  defaults for the IoU type (:func:`setting`): for boxes and masks, all, small, medium and
  large, and 1, 10, 100; for keypoints, all, medium and large, and 20.
* Per image and category, detections are sorted by descending score with a stable sort (ties
  keep their input order, as COCOeval's mergesort) and only the first ``maxDets[-1]`` are
  evaluated.
* A ground truth object is *ignored* in an area range if it is crowded, is marked ignored
  (keypoint objects without a visible keypoint), or its area is outside the range (bounds
  included). For each IoU threshold and area range, each detection in score
  order takes, among the objects not yet taken (crowded ones can be taken again), the one of
  highest IoU at least the threshold, preferring objects that are not ignored; among equal
  IoUs the last object in input order wins. A detection matched to an ignored object is
  ignored, and so is an unmatched detection whose area is outside the range.
* Per category, area range and ``maxDets`` (per image), the evaluated detections
  of all images are ranked by descending score (ties: image order, then rank in the image)
  into a precision-recall curve; precision is made non-increasing and read at the 101 recall
  thresholds :math:`0, 0.01, \\ldots, 1` (0 past the largest recall). Recall is the last
  recall of the curve. Categories without an object that is not ignored get -1.

The detections are matched all at once, one rank at a time: the detections of rank ``r`` of
every image and category, their candidate objects, the 10 thresholds and the area ranges
form one array operation, so the Python loop runs at most ``maxDets[-1]`` times whatever the
data size.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy

from vision.evaluations._coco_result import COCOEvaluation, COCOParams

IOU_THRESHS = numpy.linspace(.5, 0.95, int(numpy.round((0.95 - .5) / .05)) + 1, endpoint=True)
REC_THRESHS = numpy.linspace(.0, 1.00, int(numpy.round((1.00 - .0) / .01)) + 1, endpoint=True)
MAX_DETS = (1, 10, 100)
AREA_RANGES = {'all': (0. ** 2, 1e5 ** 2), 'small': (0. ** 2, 32. ** 2),
               'medium': (32. ** 2, 96. ** 2), 'large': (96. ** 2, 1e5 ** 2)}
KEYPOINT_MAX_DETS = (20,)
KEYPOINT_AREA_RANGES = {name: AREA_RANGES[name] for name in ('all', 'medium', 'large')}


def setting(iou_type: str) -> tuple[dict[str, tuple[float, float]], tuple[int, ...]]:
    """The area ranges and ``maxDets`` of pycocotools' ``Params`` for ``iou_type``."""
    if iou_type == 'keypoints':
        return KEYPOINT_AREA_RANGES, KEYPOINT_MAX_DETS
    return AREA_RANGES, MAX_DETS


class ObjectColumns:
    """Per-object arrays (``label``, ``score``, ``area``, ...) gathered image by image.

    Args:
        *names (str): The vector columns besides ``image``, which :meth:`add` fills in.
        **shapes (tuple): Columns with a trailing shape, e.g. ``box=(4,)``; float64 but for
            ``visible`` (bool).
    """

    _DTYPES = {'label': numpy.int64, 'score': numpy.float64, 'area': numpy.float64,
               'crowd': numpy.bool_, 'ignore': numpy.bool_, 'visible': numpy.bool_}

    def __init__(self, *names: str, **shapes: tuple) -> None:
        self._shapes = {**{name: () for name in names}, **shapes}
        self._parts: dict[str, list] = {key: [] for key in self._shapes}
        self._images: list[int] = []
        self._lengths: list[int] = []

    def add(self, image: int, **columns: numpy.ndarray) -> None:
        """Adds the objects of one image: one array per column, of one length."""
        self._images.append(image)
        self._lengths.append(len(next(iter(columns.values()))))
        for key, value in columns.items():
            self._parts[key].append(value)

    def arrays(self) -> dict[str, numpy.ndarray]:
        """The columns concatenated over the images, in their dtypes, and ``image``."""
        columns = {'image': numpy.repeat(numpy.asarray(self._images, dtype=numpy.int64),
                                         self._lengths)}
        for key, shape in self._shapes.items():
            dtype = self._DTYPES.get(key, numpy.float64)
            empty = numpy.zeros((0, *shape), dtype)
            columns[key] = numpy.concatenate([empty, *self._parts[key]]).astype(dtype,
                                                                               copy=False)
        return columns


def similar_pairs(det: dict, gt: dict,
                  similarity: Callable[[numpy.ndarray, numpy.ndarray], numpy.ndarray],
                  chunk: int = 1 << 22) -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """The pairs of a detection and an object of its image and label whose similarity is at
    least the lowest threshold, for :func:`evaluate`.

    Args:
        det (dict): ``image`` and ``label`` of the detections, int64 of shape :math:`(D,)`.
        gt (dict): ``image`` and ``label`` of the objects, int64 of shape :math:`(G,)`.
        similarity (callable): Given the indices ``(det_index, gt_index)`` of :math:`P`
            pairs, returns their similarities (IoU, OKS) as float64 of shape :math:`(P,)`.
        chunk (int): About the most pairs passed to ``similarity`` at once, which bounds
            memory: the calls are cut between detections at multiples of ``chunk`` pairs and a
            detection's pairs are never split, so a call takes at most ``chunk`` plus the
            pairs of one detection (and a call may take none).

    Returns:
        tuple of numpy.ndarray: ``(det_index, gt_index, similarity)`` of the pairs kept.
    """
    n_label = int(max(det['label'].max(initial=0), gt['label'].max(initial=0))) + 1
    gt_key = gt['image'] * n_label + gt['label']
    gt_order = numpy.argsort(gt_key, kind='stable')
    det_key = det['image'] * n_label + det['label']
    first = numpy.searchsorted(gt_key[gt_order], det_key, side='left')
    count = numpy.searchsorted(gt_key[gt_order], det_key, side='right') - first
    dets = numpy.flatnonzero(count)
    ends = numpy.cumsum(count[dets])
    cuts = numpy.searchsorted(ends, numpy.arange(chunk, ends[-1] if len(ends) else 0, chunk),
                              side='right')
    found = [(numpy.zeros(0, numpy.int64),) * 2 + (numpy.zeros(0),)]
    for part in numpy.split(dets, cuts):
        n_pair = count[part]
        pair_det = numpy.repeat(part, n_pair)
        within = numpy.arange(n_pair.sum()) - numpy.repeat(numpy.cumsum(n_pair) - n_pair, n_pair)
        pair_gt = gt_order[numpy.repeat(first[part], n_pair) + within]
        value = similarity(pair_det, pair_gt)
        keep = value >= IOU_THRESHS[0]
        found.append((pair_det[keep], pair_gt[keep], value[keep]))
    return tuple(numpy.concatenate(column) for column in zip(*found))


def evaluate(iou_type: str, n_image: int, det: dict, gt: dict,
             pairs: tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]) -> COCOEvaluation:
    """Evaluates detections against ground truth as COCOeval does.

    Args:
        iou_type (str): ``'bbox'``, ``'segm'`` or ``'keypoints'``, which chooses the area
            ranges and ``maxDets`` (:func:`setting`) and is recorded in the parameters.
        n_image (int): The number of images.
        det (dict): Arrays of shape :math:`(D,)` in input order (image by image): ``image``
            (int64 index), ``label`` (int64), ``score`` (float64), ``area`` (float64).
        gt (dict): Arrays of shape :math:`(G,)` in input order: ``image``, ``label``,
            ``area``, ``crowd`` (bool) and optionally ``ignore`` (bool), objects ignored
            whatever the area range although not crowded.
        pairs (tuple of numpy.ndarray): ``(det_index, gt_index, iou)`` for pairs of a
            detection and an object of the same image and label, in any order; pairs left
            out have an IoU (or OKS) below :data:`IOU_THRESHS` ``[0]``.

    Returns:
        COCOEvaluation: the precision and recall arrays with their parameters.
    """
    area_ranges, max_dets = setting(iou_type)
    labels = numpy.union1d(det['label'], gt['label'])
    rank = _rank_in_group(det['image'], det['label'], det['score'])
    lower = numpy.array([low for low, _ in area_ranges.values()])
    upper = numpy.array([high for _, high in area_ranges.values()])
    always_ignored = gt['crowd'] | gt['ignore'] if 'ignore' in gt else gt['crowd']
    gt_ignore = always_ignored[:, None] | (gt['area'][:, None] < lower) | \
        (gt['area'][:, None] > upper)
    det_outside = (det['area'][:, None] < lower) | (det['area'][:, None] > upper)

    # Flags of shape (A * T, D): area range major, then IoU threshold.
    n_area, n_thresh = len(lower), len(IOU_THRESHS)
    matched = numpy.zeros((n_area * n_thresh, len(rank)), dtype=bool)
    ignored = numpy.repeat(det_outside.T, n_thresh, axis=0)
    det_index, area, thresh, gt_index = _match(rank, max_dets[-1], gt_ignore, gt['crowd'],
                                               pairs)
    row = area * n_thresh + thresh
    matched[row, det_index] = True
    ignored[row, det_index] = gt_ignore[gt_index, area]
    n_positive = numpy.stack([numpy.bincount(numpy.searchsorted(labels, gt['label'][~ignore]),
                                             minlength=len(labels))
                              for ignore in gt_ignore.T], axis=1)
    precision, recall = _accumulate(numpy.searchsorted(labels, det['label']), det['score'],
                                    rank, max_dets, matched & ~ignored, ~matched & ~ignored,
                                    n_positive)
    params = COCOParams(iouType=iou_type, imgIds=list(range(1, n_image + 1)),
                        catIds=[int(lb) for lb in labels], iouThrs=IOU_THRESHS,
                        recThrs=REC_THRESHS, maxDets=list(max_dets),
                        areaRng=[list(r) for r in area_ranges.values()],
                        areaRngLbl=list(area_ranges))
    return COCOEvaluation(params, precision, recall)


def _rank_in_group(image: numpy.ndarray, label: numpy.ndarray,
                   score: numpy.ndarray) -> numpy.ndarray:
    """Each detection's position in its image and label by descending score, ties stable."""
    group = image * (int(label.max(initial=0)) + 1) + label
    order = numpy.lexsort((-score, group))  # stable: ties keep their input order
    new_group = numpy.ones(len(order), dtype=bool)
    new_group[1:] = group[order][1:] != group[order][:-1]
    position = numpy.arange(len(order))
    start = numpy.maximum.accumulate(numpy.where(new_group, position, 0))
    rank = numpy.empty(len(order), dtype=numpy.int64)
    rank[order] = position - start
    return rank


def _match(rank: numpy.ndarray, max_det: int, gt_ignore: numpy.ndarray,
           gt_crowd: numpy.ndarray, pairs: tuple) -> tuple[numpy.ndarray, ...]:
    """All matches of the detections of rank below ``max_det``, as arrays ``(det,
    area_range, iou_thresh, gt)`` of indices."""
    threshold = numpy.minimum(IOU_THRESHS, 1 - 1e-10)
    det, gt, iou = pairs
    keep = (rank[det] < max_det) & (iou >= threshold.min())
    det, gt, iou = det[keep], gt[keep], iou[keep]
    # Rank by rank; each detection's candidates in input order.
    order = numpy.lexsort((gt, det, rank[det]))
    det, gt, iou = det[order], gt[order], iou[order]
    taken = numpy.zeros((len(gt_ignore), gt_ignore.shape[1], len(threshold)), dtype=bool)
    bounds = numpy.flatnonzero(numpy.diff(rank[det], prepend=-1, append=max_det))
    found = [numpy.zeros(0, numpy.int64)] * 4
    for begin, end in zip(bounds[:-1], bounds[1:]):
        step = _match_rank(det[begin:end], gt[begin:end], iou[begin:end], threshold,
                           gt_ignore, gt_crowd, taken)
        found = [numpy.concatenate(pair) for pair in zip(found, step)]
    return tuple(found)


def _match_rank(det: numpy.ndarray, gt: numpy.ndarray, iou: numpy.ndarray,
                threshold: numpy.ndarray, gt_ignore: numpy.ndarray, gt_crowd: numpy.ndarray,
                taken: numpy.ndarray) -> tuple[numpy.ndarray, ...]:
    """Matches the detections of one rank (at most one per image and label).

    ``det``, ``gt`` and ``iou`` list the candidate pairs grouped by detection; each group is a
    segment of the arrays, reduced with ``ufunc.reduceat``. Marks the objects taken in
    ``taken`` ``(G, A, T)`` and returns the matches as :func:`_match` does.
    """
    first = numpy.diff(det, prepend=-1) != 0
    start = numpy.flatnonzero(first)
    segment = numpy.cumsum(first) - 1
    free = gt_crowd[gt][:, None, None] | ~taken[gt]
    candidate = free & (iou[:, None, None] >= threshold)
    regular = candidate & ~gt_ignore[gt][:, :, None]
    has_regular = numpy.logical_or.reduceat(regular, start, axis=0)
    chosen = numpy.where(has_regular[segment], regular, candidate)
    value = numpy.where(chosen, iou[:, None, None], -numpy.inf)
    best = numpy.maximum.reduceat(value, start, axis=0)
    position = numpy.where(chosen & (value == best[segment]),
                           numpy.arange(len(det))[:, None, None], -1)
    pick = numpy.maximum.reduceat(position, start, axis=0)
    seg, area, thresh = numpy.nonzero(pick >= 0)
    picked_gt = gt[pick[seg, area, thresh]]
    taken[picked_gt, area, thresh] = True
    return det[start[seg]], area, thresh, picked_gt


def _accumulate(category: numpy.ndarray, score: numpy.ndarray, rank: numpy.ndarray,
                max_dets: tuple[int, ...], true_positive: numpy.ndarray,
                false_positive: numpy.ndarray, n_positive: numpy.ndarray
                ) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Precision ``(T, R, K, A, M)`` and recall ``(T, K, A, M)``, -1 where undefined.

    ``true_positive`` and ``false_positive`` are boolean ``(A * T, D)``; ``n_positive``
    ``(K, A)`` counts the objects that are not ignored.
    """
    n_category, n_area = n_positive.shape
    n_thresh = len(IOU_THRESHS)
    shape = (n_thresh, len(REC_THRESHS), n_category, n_area, len(max_dets))
    precision = -numpy.ones(shape)
    recall = -numpy.ones(shape[:1] + shape[2:])
    # Category, then descending score; ties in input order, which is image order and, within
    # an image, rank order, as COCOeval's mergesort of the images' sorted detections.
    evaluated = numpy.flatnonzero(rank < max_dets[-1])
    order = evaluated[numpy.lexsort((-score[evaluated], category[evaluated]))]
    bounds = numpy.searchsorted(category[order], numpy.arange(n_category + 1))
    true_positive, false_positive, rank = \
        true_positive[:, order], false_positive[:, order], rank[order]
    for k in range(n_category):
        valid = n_positive[k] > 0
        if not valid.any():
            continue
        in_category = slice(bounds[k], bounds[k + 1])
        tp_k, fp_k = true_positive[:, in_category], false_positive[:, in_category]
        n_positive_k = numpy.repeat(n_positive[k], n_thresh)
        for m, max_det in enumerate(max_dets):
            kept = rank[in_category] < max_det
            if kept.all():
                prec_km, rec_km = _curve(tp_k, fp_k, n_positive_k)
            else:
                prec_km, rec_km = _curve(tp_k[:, kept], fp_k[:, kept], n_positive_k)
            prec_km = prec_km.reshape(n_area, n_thresh, -1).transpose(1, 2, 0)
            precision[:, :, k, valid, m] = prec_km[:, :, valid]
            recall[:, k, valid, m] = rec_km.reshape(n_area, n_thresh).T[:, valid]
    return precision, recall


def _curve(true_positive: numpy.ndarray, false_positive: numpy.ndarray,
           n_positive: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """Interpolated precision ``(C, R)`` and recall ``(C,)`` of ``C`` curves at once.

    ``true_positive`` and ``false_positive`` are boolean ``(C, n)`` in ranking order;
    ``n_positive`` ``(C,)`` counts the objects of each curve that are not ignored (a curve
    with none gives garbage, which the caller drops).
    """
    n_curve, n = true_positive.shape
    if n == 0:
        return numpy.zeros((n_curve, len(REC_THRESHS))), numpy.zeros(n_curve)
    n_positive = numpy.maximum(n_positive, 1)
    tp = numpy.cumsum(true_positive, axis=1, dtype=numpy.int32)
    fp = numpy.cumsum(false_positive, axis=1, dtype=numpy.int32)
    precision = tp / (fp + tp + numpy.spacing(1))
    envelope = numpy.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
    recall = tp[:, -1] / n_positive
    # The recall after j true positives is j / n_positive (in float64, as COCOeval divides),
    # so the first point of recall at least a threshold is the first whose tp reaches the
    # least such j. One search finds them for all curves, laid end to end with each curve's
    # counts offset past the previous curve's.
    counts, inverse = numpy.unique(n_positive, return_inverse=True)
    least_tp = numpy.stack([numpy.searchsorted(numpy.arange(p + 1) / p, REC_THRESHS)
                            for p in counts])[inverse.ravel()]
    offset = numpy.arange(n_curve)[:, None] * (n + 2)
    index = numpy.searchsorted((tp + offset).ravel(), numpy.minimum(least_tp, n + 1) + offset)
    index -= numpy.arange(n_curve)[:, None] * n
    interpolated = numpy.where(
        index < n, numpy.take_along_axis(envelope, numpy.minimum(index, n - 1), axis=1), 0.)
    return interpolated, recall

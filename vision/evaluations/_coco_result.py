"""The results of a COCO evaluation: pycocotools-style arrays and ChainerCV's summary keys."""

from __future__ import annotations

from dataclasses import dataclass

import numpy

from vision.evaluations._common import nanmean


@dataclass
class COCOParams:
    """The parameters of a COCO evaluation, under the names of pycocotools' ``Params``."""

    iouType: str
    imgIds: list
    catIds: list
    iouThrs: numpy.ndarray
    recThrs: numpy.ndarray
    maxDets: list
    areaRng: list
    areaRngLbl: list
    useCats: int = 1


class COCOEvaluation:
    """The accumulated arrays of a COCO evaluation, readable as pycocotools' ``COCOeval``.

    This is what the ``coco_eval`` entry of :func:`~vision.evaluations.eval_detection_coco`
    (and of the instance segmentation and keypoint evaluations) holds, in place of
    ChainerCV's ``pycocotools.cocoeval.COCOeval``: the attributes that code reads after
    ``accumulate()`` are here with the same names and layouts.

    Attributes:
        params (COCOParams): ``iouThrs`` (:math:`T` = 10), ``recThrs`` (:math:`R` = 101),
            ``catIds`` (the :math:`K` labels present), ``areaRng`` and ``areaRngLbl``
            (:math:`A` = 4, or 3 for keypoints), ``maxDets`` (:math:`M` = 3, or 1 for
            keypoints), ``imgIds``, ``iouType``.
        eval (dict): ``'precision'``, float64 of shape :math:`(T, R, K, A, M)`, and
            ``'recall'``, float64 of shape :math:`(T, K, A, M)`, -1 where a category has no
            object that is not ignored; ``'counts'`` :math:`[T, R, K, A, M]`; ``'params'``.
        stats (numpy.ndarray): After :meth:`summarize`, the numbers it prints (12, or 10 for
            keypoints).
    """

    def __init__(self, params: COCOParams, precision: numpy.ndarray,
                 recall: numpy.ndarray) -> None:
        self.params = params
        self.eval = {'params': params, 'counts': list(precision.shape),
                     'precision': precision, 'recall': recall}
        self.stats: numpy.ndarray | None = None

    def summarize(self) -> None:
        """Prints the standard numbers as pycocotools' ``summarize()`` and sets ``stats``."""
        lines = []
        stats = []
        for ap, iou_thresh, area, max_det in _standard(self.params.iouType):
            value = self._mean(ap, iou_thresh, area, max_det)
            stats.append(value)
            title, kind = ('Average Precision', '(AP)') if ap else ('Average Recall', '(AR)')
            iou_text = (f'{self.params.iouThrs[0]:0.2f}:{self.params.iouThrs[-1]:0.2f}'
                        if iou_thresh is None else f'{iou_thresh:0.2f}')
            lines.append(f' {title:<18} {kind} @[ IoU={iou_text:<9} | area={area:>6s} | '
                         f'maxDets={max_det:>3d} ] = {value:0.3f}')
        self.stats = numpy.array(stats)
        print('\n'.join(lines))

    def _mean(self, ap: bool, iou_thresh: float | None, area: str, max_det: int) -> float:
        values = _select(self.eval['precision'] if ap else self.eval['recall'], self.params,
                         ap, iou_thresh, area, max_det)
        values = values[values > -1]
        return float(numpy.mean(values)) if values.size else -1.


# (ap, iou_thresh, area, max_det) of the numbers pycocotools' summarize() prints.
_DETECTION_STANDARD = [
    (True, None, 'all', 100), (True, 0.5, 'all', 100), (True, 0.75, 'all', 100),
    (True, None, 'small', 100), (True, None, 'medium', 100), (True, None, 'large', 100),
    (False, None, 'all', 1), (False, None, 'all', 10), (False, None, 'all', 100),
    (False, None, 'small', 100), (False, None, 'medium', 100), (False, None, 'large', 100)]
_KEYPOINT_STANDARD = [
    (ap, iou_thresh, area, 20) for ap in (True, False)
    for iou_thresh, area in ((None, 'all'), (0.5, 'all'), (0.75, 'all'), (None, 'medium'),
                             (None, 'large'))]


def _standard(iou_type: str) -> list[tuple]:
    return _KEYPOINT_STANDARD if iou_type == 'keypoints' else _DETECTION_STANDARD


def _select(array: numpy.ndarray, params: COCOParams, ap: bool, iou_thresh: float | None,
            area: str, max_det: int) -> numpy.ndarray:
    """Precision ``(T', R, K)`` or recall ``(T', K)`` at one area range and ``maxDets``."""
    if iou_thresh is not None:
        array = array[numpy.flatnonzero(numpy.isclose(params.iouThrs, iou_thresh))]
    a = params.areaRngLbl.index(area)
    m = params.maxDets.index(max_det)
    return array[:, :, :, a, m] if ap else array[:, :, a, m]


def chainercv_summary(evaluation: COCOEvaluation, with_areas: bool, protocol: dict) -> dict:
    """The result dictionary of ChainerCV's COCO evaluations, with ``protocol`` added.

    For each of ChainerCV's keys, which are the standard numbers of ``summarize()``
    (``ap/iou=0.50:0.95/area=all/max_dets=100``, ...; those of an area range other than
    ``all`` only ``with_areas``), a float64 array indexed by label holding each class's mean
    over IoU thresholds (and recall thresholds, for AP), NaN for labels that are absent or
    have no object; and under ``'m' + key`` the mean over classes, NaN skipped.
    """
    params = evaluation.params
    labels = numpy.asarray(params.catIds, dtype=numpy.int64)
    n_label = int(labels.max()) + 1 if labels.size else 0
    results: dict = {'coco_eval': evaluation}
    for ap, iou_thresh, area, max_det in _standard(params.iouType):
        if area != 'all' and not with_areas:
            continue
        values = _select(evaluation.eval['precision'] if ap else evaluation.eval['recall'],
                         params, ap, iou_thresh, area, max_det)
        values = values.reshape(int(numpy.prod(values.shape[:-1])), len(labels))
        valid = (values != -1).any(axis=0)
        per_class = numpy.full(len(labels), numpy.nan)
        per_class[valid] = values[:, valid].mean(axis=0)
        iou_text = '0.50:0.95' if iou_thresh is None else f'{iou_thresh:.2f}'
        key = f'{"ap" if ap else "ar"}/iou={iou_text}/area={area}/max_dets={max_det}'
        results[key] = numpy.full(n_label, numpy.nan)
        results[key][labels] = per_class
        results['m' + key] = nanmean(per_class)
    results['existent_labels'] = labels
    results['protocol'] = protocol
    return results

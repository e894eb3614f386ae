"""COCO evaluation benchmark: ``vision.evaluations.eval_detection_coco`` beside pycocotools.

Prints our time beside pycocotools' ``COCOeval`` (``evaluate()``, ``accumulate()`` and
``summarize()``; building its annotation index is not counted), measured in the same run, when
pycocotools is importable (``pip install pycocotools``; it is in the ``test`` extra)::

    python bench/eval_coco.py [--images 5000] [--classes 80] [--repeat 1]

The data are random but shaped like a detector's output on COCO: about 7 ground truth boxes
per image (sides log-uniform from 4 to 400 pixels in a 640 x 480 image, 1% crowded, with a
segmentation area below the box area), and 100 predictions per image: for most objects a
few boxes jittered around it with high scores (now and then with the wrong label), and
low-scoring boxes elsewhere. Our time includes reading the inputs; the ratio is pycocotools'
time / ours (above 1: we are faster). The 12 summary numbers of both are compared.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time

import numpy

from vision.evaluations import eval_detection_coco

try:
    import pycocotools.coco
    import pycocotools.cocoeval
except ImportError:
    pycocotools = None

_SUMMARY_KEYS = [
    'map/iou=0.50:0.95/area=all/max_dets=100', 'map/iou=0.50/area=all/max_dets=100',
    'map/iou=0.75/area=all/max_dets=100', 'map/iou=0.50:0.95/area=small/max_dets=100',
    'map/iou=0.50:0.95/area=medium/max_dets=100', 'map/iou=0.50:0.95/area=large/max_dets=100',
    'mar/iou=0.50:0.95/area=all/max_dets=1', 'mar/iou=0.50:0.95/area=all/max_dets=10',
    'mar/iou=0.50:0.95/area=all/max_dets=100', 'mar/iou=0.50:0.95/area=small/max_dets=100',
    'mar/iou=0.50:0.95/area=medium/max_dets=100', 'mar/iou=0.50:0.95/area=large/max_dets=100']


def _boxes(rng, n: int, size=(480, 640)) -> numpy.ndarray:
    """``n`` boxes ``(y_min, x_min, y_max, x_max)`` with log-uniform sides inside the image."""
    side = numpy.exp(rng.uniform(numpy.log(4), numpy.log(400), (n, 2)))
    side = numpy.minimum(side, numpy.array(size) - 1)
    corner = rng.uniform(0, 1, (n, 2)) * (numpy.array(size) - side)
    return numpy.concatenate([corner, corner + side], axis=1)


def make_data(n_image: int, n_class: int, seed: int = 0) -> tuple[list, ...]:
    """Random ground truth and predictions, one entry per image (see the module docstring)."""
    rng = numpy.random.default_rng(seed)
    data: tuple[list, ...] = tuple([] for _ in range(7))
    for _ in range(n_image):
        n_gt = rng.poisson(7)
        gt_bbox = _boxes(rng, n_gt)
        gt_label = rng.integers(0, n_class, n_gt)
        height, width = (gt_bbox[:, 2:] - gt_bbox[:, :2]).T
        gt_area = height * width * rng.uniform(0.4, 0.9, n_gt)
        gt_crowded = rng.uniform(size=n_gt) < 0.01
        # A few jittered copies of most objects, then background boxes up to 100.
        copies = rng.integers(0, 4, n_gt) * (rng.uniform(size=n_gt) < 0.9)
        source = numpy.repeat(numpy.arange(n_gt), copies)
        jitter = rng.normal(0, 0.1, (len(source), 4)) * numpy.tile(
            numpy.stack([height, width], axis=1), 2)[source]
        hit_bbox = gt_bbox[source] + jitter
        hit_label = numpy.where(rng.uniform(size=len(source)) < 0.9, gt_label[source],
                                rng.integers(0, n_class, len(source)))
        n_miss = 100 - len(source)
        pred_bbox = numpy.concatenate([hit_bbox, _boxes(rng, n_miss)])
        pred_bbox[:, 2:] = numpy.maximum(pred_bbox[:, 2:], pred_bbox[:, :2] + 1)
        pred_label = numpy.concatenate([hit_label, rng.integers(0, n_class, n_miss)])
        pred_score = numpy.concatenate([rng.uniform(0.3, 1, len(source)),
                                        rng.uniform(0, 0.5, n_miss)])
        for column, value in zip(data, (
                pred_bbox.astype(numpy.float32), pred_label.astype(numpy.int32),
                pred_score.astype(numpy.float32), gt_bbox.astype(numpy.float32),
                gt_label.astype(numpy.int32), gt_area.astype(numpy.float32), gt_crowded)):
            column.append(value)
    return data


def _annotation(bbox, label, image_id, index, score=None, area=None, crowded=False) -> dict:
    """One annotation as ChainerCV builds it for pycocotools."""
    y_min, x_min, y_max, x_max = bbox
    height, width = y_max - y_min, x_max - x_min
    annotation = {'image_id': image_id, 'category_id': int(label), 'id': index,
                  'bbox': [numpy.round(x_min, 2), numpy.round(y_min, 2),
                           numpy.round(width, 2), numpy.round(height, 2)],
                  'area': height * width if area is None else area, 'iscrowd': crowded}
    if score is not None:
        annotation['score'] = score
    return annotation


def pycocotools_eval(data: tuple[list, ...]) -> tuple[float, numpy.ndarray]:
    """pycocotools' time for evaluate, accumulate and summarize, and its 12 numbers."""
    pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_areas, gt_crowdeds = data
    preds, gts = [], []
    for i in range(len(pred_bboxes)):
        for bbox, label, score in zip(pred_bboxes[i], pred_labels[i], pred_scores[i]):
            preds.append(_annotation(bbox, label, i + 1, len(preds) + 1, score=score))
        for bbox, label, area, crowded in zip(gt_bboxes[i], gt_labels[i], gt_areas[i],
                                              gt_crowdeds[i]):
            gts.append(_annotation(bbox, label, i + 1, len(gts) + 1, area=area,
                                   crowded=bool(crowded)))
    labels = sorted({a['category_id'] for a in preds} | {a['category_id'] for a in gts})
    cocos = []
    for anns in (gts, preds):
        coco = pycocotools.coco.COCO()
        coco.dataset = {'images': [{'id': i + 1} for i in range(len(pred_bboxes))],
                        'categories': [{'id': label} for label in labels],
                        'annotations': anns}
        with contextlib.redirect_stdout(io.StringIO()):
            coco.createIndex()
        cocos.append(coco)
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        evaluator = pycocotools.cocoeval.COCOeval(cocos[0], cocos[1], 'bbox')
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    return time.perf_counter() - start, evaluator.stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--images', type=int, default=5000)
    parser.add_argument('--classes', type=int, default=80)
    parser.add_argument('--repeat', type=int, default=1)
    args = parser.parse_args()

    data = make_data(args.images, args.classes)
    n_gt = sum(len(label) for label in data[4])
    n_pred = sum(len(label) for label in data[1])
    print(f'{args.images} images, {args.classes} classes, {n_gt} ground truth boxes, '
          f'{n_pred} predictions')
    ours = float('inf')
    for _ in range(args.repeat):
        start = time.perf_counter()
        result = eval_detection_coco(*data)
        ours = min(ours, time.perf_counter() - start)
    print(f'ours:        {ours:8.2f} s')
    if pycocotools is None:
        print('pycocotools is not importable here: our time only.')
        return
    theirs, stats = pycocotools_eval(data)
    print(f'pycocotools: {theirs:8.2f} s  (evaluate + accumulate + summarize)')
    print(f'ratio:       {theirs / ours:8.2f} x')
    ours_stats = numpy.array([result[key] for key in _SUMMARY_KEYS])
    difference = numpy.abs(ours_stats - stats).max()
    print(f'largest difference of the 12 summary numbers: {difference:.2e}')


if __name__ == '__main__':
    main()

"""pycocotools as the reference for the COCO evaluations, random detection data, and small
directories in the layouts of the semantic segmentation datasets.

The reference builds COCO objects from the inputs exactly as ChainerCV's
``eval_detection_coco``, ``eval_instance_segmentation_coco`` and
``eval_keypoint_detection_coco`` do (boxes as rounded ``(x, y, w, h)``, masks run-length
encoded, keypoints as ``(x, y, v)`` triples, image ids from 1) and runs ``COCOeval``. For
keypoints it departs from ChainerCV where :func:`vision.evaluations.eval_keypoint_detection_coco`
does: ``num_keypoints`` counts the visible keypoints, and the categories are those of both
sides.
"""

from __future__ import annotations

import contextlib
import io
import pathlib

import numpy
import pytest
from PIL import Image


def _box_annotation(bbox, label, image_id, index, score=None, area=None, crowded=None):
    y_min, x_min, y_max, x_max = bbox
    height, width = y_max - y_min, x_max - x_min
    return {'image_id': image_id, 'category_id': label, 'id': index,
            'bbox': [numpy.round(x_min, 2), numpy.round(y_min, 2),
                     numpy.round(width, 2), numpy.round(height, 2)],
            'area': height * width if area is None else area,
            'iscrowd': bool(crowded), **({} if score is None else {'score': score})}


def _mask_annotation(mask, label, image_id, index, score=None, area=None, crowded=None):
    import pycocotools.mask

    rle = pycocotools.mask.encode(numpy.asfortranarray(mask.astype(numpy.uint8)))
    return {'image_id': image_id, 'category_id': label, 'id': index, 'segmentation': rle,
            'area': pycocotools.mask.area(rle) if area is None else area,
            'iscrowd': bool(crowded), **({} if score is None else {'score': score})}


def _keypoint_annotation(point, visible, bbox, label, image_id, index, score=None, area=None,
                         crowded=None):
    # Numpy scalars in the inputs' dtypes, as ChainerCV passes them.
    y_min, x_min = point.min(axis=0)
    y_max, x_max = point.max(axis=0)
    if bbox is None:
        box = [x_min, y_min, x_max - x_min, y_max - y_min]
    else:
        box = [bbox[1], bbox[0], bbox[3] - bbox[1], bbox[2] - bbox[0]]
    keypoints = numpy.stack([point[:, 1], point[:, 0], visible], axis=1).astype(float)
    return {'image_id': image_id, 'category_id': label, 'id': index,
            'keypoints': keypoints.ravel().tolist(), 'bbox': box,
            'num_keypoints': int(numpy.count_nonzero(visible)),
            'area': (y_max - y_min) * (x_max - x_min) if area is None else area,
            'iscrowd': bool(crowded), **({} if score is None else {'score': score})}


def _run_cocoeval(iou_type, images, gt_annotations, pred_annotations, labels):
    import pycocotools.coco
    import pycocotools.cocoeval

    cocos = []
    for anns in (gt_annotations, pred_annotations):
        coco = pycocotools.coco.COCO()
        coco.dataset = {'images': images, 'annotations': anns,
                        'categories': [{'id': label} for label in sorted(labels)]}
        cocos.append(coco)
    with contextlib.redirect_stdout(io.StringIO()):
        for coco in cocos:
            coco.createIndex()
        evaluator = pycocotools.cocoeval.COCOeval(cocos[0], cocos[1], iou_type)
        evaluator.evaluate()
        evaluator.accumulate()
    return evaluator


def coco_reference(iou_type, preds, pred_labels, pred_scores, gts, gt_labels, gt_areas=None,
                   gt_crowdeds=None):
    """pycocotools' ``COCOeval`` after ``evaluate()`` and ``accumulate()``."""
    annotation = _box_annotation if iou_type == 'bbox' else _mask_annotation
    images, pred_annotations, gt_annotations, labels = [], [], [], set()
    for i in range(len(preds)):
        for obj, label, score in zip(preds[i], pred_labels[i], pred_scores[i]):
            pred_annotations.append(annotation(obj, label, i + 1, len(pred_annotations) + 1,
                                               score=score))
            labels.add(label)
        areas = [None] * len(gts[i]) if gt_areas is None else gt_areas[i]
        crowdeds = [None] * len(gts[i]) if gt_crowdeds is None else gt_crowdeds[i]
        for obj, label, area, crowded in zip(gts[i], gt_labels[i], areas, crowdeds):
            gt_annotations.append(annotation(obj, label, i + 1, len(gt_annotations) + 1,
                                             area=area, crowded=crowded))
            labels.add(label)
        image = {'id': i + 1}
        if iou_type == 'segm':
            image.update(height=preds[i].shape[1], width=preds[i].shape[2])
        images.append(image)
    return _run_cocoeval(iou_type, images, gt_annotations, pred_annotations, labels)


def keypoint_reference(pred_points, pred_labels, pred_scores, gt_points, gt_visibles,
                       gt_bboxes=None, gt_labels=None, gt_areas=None, gt_crowdeds=None):
    """pycocotools' ``COCOeval(iouType='keypoints')`` after ``evaluate()`` and
    ``accumulate()``; arguments as :func:`vision.evaluations.eval_keypoint_detection_coco`."""
    images, pred_annotations, gt_annotations, labels = [], [], [], set()
    for i in range(len(pred_points)):
        for point, label, score in zip(pred_points[i], pred_labels[i], pred_scores[i]):
            pred_annotations.append(_keypoint_annotation(
                point, numpy.ones(len(point)), None, label, i + 1, len(pred_annotations) + 1,
                score=score))
            labels.add(label)
        n_gt = len(gt_points[i])
        columns = [[None] * n_gt if column is None else column[i]
                   for column in (gt_bboxes, gt_labels, gt_areas, gt_crowdeds)]
        for point, visible, bbox, label, area, crowded in zip(gt_points[i], gt_visibles[i],
                                                               *columns):
            label = 0 if label is None else label
            gt_annotations.append(_keypoint_annotation(
                point, visible, bbox, label, i + 1, len(gt_annotations) + 1, area=area,
                crowded=crowded))
            labels.add(label)
        images.append({'id': i + 1})
    return _run_cocoeval('keypoints', images, gt_annotations, pred_annotations, labels)


@pytest.fixture
def pycocotools_eval():
    """The reference :func:`coco_reference`; skips the test if pycocotools is missing."""
    pytest.importorskip('pycocotools')
    return coco_reference


def random_boxes(rng, n, size=300., min_side=2., max_side=150.):
    corner = rng.uniform(0, size, (n, 2))
    return numpy.concatenate([corner, corner + rng.uniform(min_side, max_side, (n, 2))], 1)


# The bounds of COCO's area ranges (small < 32², medium, large > 96²), which belong to both
# ranges they bound: drawn often enough that an off-by-one comparison shows.
AREA_BOUNDS = numpy.array([0, 32 ** 2, 96 ** 2], numpy.float32)


def random_areas(rng, n: int, high: float = 15000.) -> numpy.ndarray:
    """Object areas: uniform in [0, high), a third of them exactly at a range bound."""
    areas = rng.uniform(0, high, n).astype(numpy.float32)
    at_bound = rng.uniform(size=n) < 1 / 3
    areas[at_bound] = rng.choice(AREA_BOUNDS, at_bound.sum())
    return areas


def random_detections(rng, n_image=20, n_class=5, max_gt=8, max_pred=25, quantum=None,
                      dtype=numpy.float32):
    """Ground truth boxes and predictions, most of them near an object.

    With ``quantum``, coordinates are multiples of it and scores multiples of 0.2, so that
    scores and IoUs tie. A third of the objects' areas are exactly 0, 32² or 96². Returns
    ``pred_bboxes, pred_labels, pred_scores, gt_bboxes, gt_labels, gt_areas, gt_crowdeds`` as
    lists.
    """
    columns: tuple[list, ...] = tuple([] for _ in range(7))
    for _ in range(n_image):
        n_gt, n_pred = rng.integers(0, max_gt + 1), rng.integers(0, max_pred + 1)
        gt_bbox = random_boxes(rng, n_gt)
        gt_label = rng.integers(0, n_class, n_gt)
        source = rng.integers(0, max(n_gt, 1), n_pred)
        near = (rng.uniform(size=n_pred) < 0.7) & (n_gt > 0)
        pred_bbox = random_boxes(rng, n_pred, max_side=100.)
        if n_gt:
            pred_bbox[near] = gt_bbox[source[near]] + rng.normal(0, 6, (near.sum(), 4))
        pred_bbox[:, 2:] = numpy.maximum(pred_bbox[:, 2:], pred_bbox[:, :2] + 0.5)
        pred_label = numpy.where(near & (rng.uniform(size=n_pred) < 0.9),
                                 gt_label[source] if n_gt else 0,
                                 rng.integers(0, n_class, n_pred))
        pred_score = rng.uniform(size=n_pred)
        if quantum:
            pred_bbox, gt_bbox = (numpy.round(b / quantum) * quantum
                                  for b in (pred_bbox, gt_bbox))
            pred_score = numpy.round(pred_score * 5) / 5
        for column, value in zip(columns, (
                pred_bbox.astype(dtype), pred_label.astype(numpy.int32),
                pred_score.astype(numpy.float32), gt_bbox.astype(dtype),
                gt_label.astype(numpy.int32),
                random_areas(rng, n_gt),
                rng.uniform(size=n_gt) < 0.15)):
            column.append(value)
    return columns


@pytest.fixture
def pycocotools_keypoints():
    """The reference :func:`keypoint_reference`; skips the test if pycocotools is missing."""
    pytest.importorskip('pycocotools')
    return keypoint_reference


@pytest.fixture
def make_areas():
    """:func:`random_areas`, for tests to call with their own generator."""
    return random_areas


@pytest.fixture
def make_detections():
    """:func:`random_detections`, for tests to call with their own generator."""
    return random_detections


def _cityscapes_ids() -> numpy.ndarray:
    """The label id of each train id (the first label of it evaluated), at index ``train id +
    1``; index 0 (-1, ignored) is the id 0, 'unlabeled'."""
    from vision.datasets.cityscapes.cityscapes_utils import cityscapes_labels
    ids = {}
    for label in cityscapes_labels:
        if not label.ignoreInEval:
            ids.setdefault(label.trainId, label.id)
    return numpy.array([0] + [ids[i] for i in range(len(ids))], numpy.uint8)


def _save(path: pathlib.Path, array: numpy.ndarray, palette: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = Image.fromarray(array, mode='P' if palette else None)
    if palette:
        image.putpalette([0, 0, 0, 128, 0, 0] + [0] * 762)
    image.save(path)


def write_segmentation_split(dataset: str, root: pathlib.Path, split: str,
                             labels: list[numpy.ndarray], seed: int = 0) -> pathlib.Path:
    """Writes random images and their label maps into ``root`` in the layout of ``dataset``
    (a benchmark's name: ``'camvid'``, ``'cityscapes'``, ``'ade20k'`` or ``'voc'``), as the
    split ``split`` (the loader's name: ``'train'``, ``'val'``, ``'test'``) holds them; the
    ignored label -1 is the file's value for it. Returns ``root``, the loader's
    ``data_dir``."""
    rng = numpy.random.default_rng(seed)
    lines = []
    for k, label in enumerate(labels):
        img = rng.integers(0, 256, label.shape + (3,), dtype=numpy.uint8)
        stem = f'{split}_{k:06d}'
        if dataset == 'camvid':
            _save(root / split / f'{stem}.png', img)
            _save(root / f'{split}annot' / f'{stem}.png',
                  numpy.where(label < 0, 11, label).astype(numpy.uint8))
            lines.append(f'/SegNet/CamVid/{split}/{stem}.png '
                         f'/SegNet/CamVid/{split}annot/{stem}.png\n')
        elif dataset == 'cityscapes':
            _save(root / 'leftImg8bit' / split / 'aachen' / f'{stem}_leftImg8bit.png', img)
            _save(root / 'gtFine' / split / 'aachen' / f'{stem}_gtFine_labelIds.png',
                  _cityscapes_ids()[label + 1])
        elif dataset == 'ade20k':
            base = root / 'ADEChallengeData2016'
            folder = {'train': 'training', 'val': 'validation'}[split]
            _save(base / 'images' / folder / f'ADE_{stem}.jpg', img)
            _save(base / 'annotations' / folder / f'ADE_{stem}.png', (label + 1).astype(
                numpy.uint8))
        else:
            _save(root / 'JPEGImages' / f'{stem}.jpg', img)
            _save(root / 'SegmentationClass' / f'{stem}.png',
                  numpy.where(label < 0, 255, label).astype(numpy.uint8), palette=True)
            lines.append(f'{stem}\n')
    list_file = {'camvid': root / f'{split}.txt',
                 'voc': root / 'ImageSets' / 'Segmentation' / f'{split}.txt'}.get(dataset)
    if list_file is not None:
        list_file.parent.mkdir(parents=True, exist_ok=True)
        list_file.write_text(''.join(lines))
    return root


@pytest.fixture
def segmentation_split():
    """:func:`write_segmentation_split`, for tests to write the splits they need."""
    return write_segmentation_split

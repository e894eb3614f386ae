"""Tiny validation sets with known predictions, one per evaluator; a link that predicts them.

Each image carries its index in its first pixel, so the stub link finds an image's
predictions whatever the batching, the order or the worker that predicts it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy

from framework.links import Link
from vision.extensions import (
    DetectionCOCOEvaluator,
    DetectionVOCEvaluator,
    InstanceSegmentationCOCOEvaluator,
    InstanceSegmentationVOCEvaluator,
    SemanticSegmentationEvaluator,
)
from vision.utils import generate_random_bbox

N_IMAGE = 5
SIZE = (12, 16)
#: Labels 0, 1, 2 occur; 'absent' (label 3) occurs nowhere, so its values are NaN.
LABEL_NAMES = ('cat', 'dog', 'bird', 'absent')
KINDS = ('detection_voc', 'detection_coco', 'semantic_segmentation',
         'instance_segmentation_voc', 'instance_segmentation_coco')


def image(index: int) -> numpy.ndarray:
    """A float32 image ``(3, H, W)`` whose first pixel is ``index``."""
    img = numpy.full((3, *SIZE), 128, numpy.float32)
    img[0, 0, 0] = index
    return img


class PredictionStub(Link):
    """A link whose ``predict(imgs)`` returns the stored predictions of each image (found by
    its first pixel): a tuple of lists, or the one list if there is one output.

    Attributes:
        calls (list of list of int): The indices of the images of each call.
    """

    def __init__(self, predictions: tuple[list, ...]):
        super().__init__()
        self.predictions = predictions
        self.calls: list[list[int]] = []

    def predict(self, imgs):
        indices = [int(img[0, 0, 0]) for img in imgs]
        self.calls.append(indices)
        outputs = tuple([values[i] for i in indices] for values in self.predictions)
        return outputs if len(outputs) > 1 else outputs[0]


@dataclass
class Case:
    """The samples ``(img, *ground_truth)`` of a set and the predictions of its images (one
    list per output of ``predict``)."""

    evaluator: type
    samples: list[tuple]
    predictions: tuple[list, ...]

    @property
    def ground_truth(self) -> tuple[list, ...]:
        """One list per ground truth value of the samples."""
        return tuple(list(values) for values in zip(*(sample[1:] for sample in self.samples)))

    def link(self) -> PredictionStub:
        return PredictionStub(self.predictions)


def _boxes(rng, n: int) -> numpy.ndarray:
    return generate_random_bbox(n, SIZE, 3, 8, rng=rng)


def _jitter(rng, bbox: numpy.ndarray) -> numpy.ndarray:
    return (bbox + rng.uniform(-1, 1, bbox.shape)).astype(numpy.float32)


def _detections(rng, gt_bboxes, gt_labels, empty: bool) -> tuple[list, list, list]:
    """Per image: the ground truth boxes moved a little with one label in three changed, and
    one box more; or nothing if ``empty``."""
    bboxes, labels, scores = [], [], []
    for gt_bbox, gt_label in zip(gt_bboxes, gt_labels):
        n = 0 if empty else len(gt_bbox) + 1
        bboxes.append(numpy.concatenate([_jitter(rng, gt_bbox), _boxes(rng, 1)])[:n])
        label = numpy.append(gt_label, 0).astype(numpy.int32)
        label[::3] = rng.integers(0, 3, len(label[::3]))
        labels.append(label[:n])
        scores.append(rng.uniform(0, 1, n).astype(numpy.float32))
    return bboxes, labels, scores


def _masks(bbox: numpy.ndarray) -> numpy.ndarray:
    """Boolean masks ``(R, H, W)`` filling the boxes."""
    y, x = numpy.mgrid[:SIZE[0], :SIZE[1]]
    y_min, x_min, y_max, x_max = (bbox[:, i, None, None] for i in range(4))
    return (y >= y_min) & (y < y_max) & (x >= x_min) & (x < x_max)


def make_case(kind: str, *, seed: int = 0, empty: bool = False, full: bool = True) -> Case:
    """The set of evaluator ``kind`` (one of :data:`KINDS`).

    Args:
        empty (bool): Whether the predictions hold no object (no box, no mask) at all.
        full (bool): Whether the samples hold their optional values too (difficult flags for
            VOC detection, areas and crowded flags for COCO).
    """
    rng = numpy.random.default_rng(seed)
    imgs = [image(i) for i in range(N_IMAGE)]
    if kind == 'semantic_segmentation':
        gt = [rng.integers(-1, 3, SIZE).astype(numpy.int32) for _ in imgs]
        pred = [numpy.where(rng.uniform(size=SIZE) < 0.7, numpy.maximum(label, 0),
                            rng.integers(0, 3, SIZE)).astype(numpy.int32) for label in gt]
        return Case(SemanticSegmentationEvaluator, list(zip(imgs, gt)), (pred,))
    gt_bboxes = [_boxes(rng, int(rng.integers(2, 5))) for _ in imgs]
    gt_labels = [rng.integers(0, 3, len(bbox)).astype(numpy.int32) for bbox in gt_bboxes]
    bboxes, labels, scores = _detections(rng, gt_bboxes, gt_labels, empty)
    rest = []
    if full and kind == 'detection_voc':
        rest = [[rng.uniform(size=len(label)) < 0.2 for label in gt_labels]]
    elif full and kind.endswith('coco'):
        rest = [[((bbox[:, 2] - bbox[:, 0]) * (bbox[:, 3] - bbox[:, 1])).astype(numpy.float32)
                 for bbox in gt_bboxes],
                [numpy.arange(len(label)) == 1 for label in gt_labels]]
    if kind.startswith('detection'):
        evaluator = DetectionVOCEvaluator if kind.endswith('voc') else DetectionCOCOEvaluator
        return Case(evaluator, list(zip(imgs, gt_bboxes, gt_labels, *rest)),
                    (bboxes, labels, scores))
    evaluator = (InstanceSegmentationVOCEvaluator if kind.endswith('voc')
                 else InstanceSegmentationCOCOEvaluator)
    return Case(evaluator, list(zip(imgs, map(_masks, gt_bboxes), gt_labels, *rest)),
                ([_masks(bbox) for bbox in bboxes], labels, scores))


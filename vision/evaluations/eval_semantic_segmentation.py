"""Pixel accuracy, class accuracy and IoU of semantic segmentations."""

from __future__ import annotations

from collections.abc import Iterable

import numpy

from vision.evaluations._common import nanmean, zip_images


def calc_semantic_segmentation_confusion(pred_labels: Iterable,
                                         gt_labels: Iterable) -> numpy.ndarray:
    """Counts the confusion matrix of predicted and ground truth label maps.

    The label maps are read one pair at a time, so an iterator over a dataset takes constant
    memory. The number of classes :math:`n\\_class` is the largest label in the inputs plus
    one (predicted labels at ignored pixels included, as in ChainerCV); the matrix grows as
    larger labels appear.

    Args:
        pred_labels (iterable of numpy.ndarray): Integer label maps of shape :math:`(H, W)`.
        gt_labels (iterable of numpy.ndarray): Integer label maps of the shapes of the
            predicted ones. Pixels labelled :math:`-1` are ignored.

    Returns:
        ~numpy.ndarray: int64 of shape :math:`(n\\_class, n\\_class)`. Element :math:`(i, j)`
        is the number of pixels of ground truth class :math:`i` predicted as class :math:`j`.

    Raises:
        ValueError: If the iterables differ in length, a pair of label maps is not
            2-dimensional or differs in shape, or a predicted label at a pixel that is not
            ignored is negative.
        TypeError: If a label map is not an integer array.
    """
    fname = 'calc_semantic_segmentation_confusion'
    confusion = numpy.zeros((0, 0), dtype=numpy.int64)
    images = zip_images(fname, {'pred_labels': pred_labels, 'gt_labels': gt_labels})
    for i, (pred_label, gt_label) in enumerate(images):
        pred_label = _as_label_map(fname, 'pred_labels', i, pred_label)
        gt_label = _as_label_map(fname, 'gt_labels', i, gt_label)
        if pred_label.shape != gt_label.shape:
            raise ValueError(f'{fname}: pred_labels[{i}] and gt_labels[{i}] must have one '
                             f'shape, but got {pred_label.shape} and {gt_label.shape}')
        valid = gt_label >= 0
        pred_valid = pred_label[valid].astype(numpy.int64)
        if pred_valid.size and pred_valid.min() < 0:
            raise ValueError(f'{fname}: pred_labels[{i}] must be at least 0 where gt_labels '
                             f'is not -1, but has {pred_valid.min()}')
        if pred_label.size:
            n_class = max(len(confusion), int(pred_label.max()) + 1, int(gt_label.max()) + 1)
        else:
            n_class = len(confusion)
        if n_class > len(confusion):
            grown = numpy.zeros((n_class, n_class), dtype=numpy.int64)
            grown[:len(confusion), :len(confusion)] = confusion
            confusion = grown
        index = n_class * gt_label[valid].astype(numpy.int64) + pred_valid
        confusion += numpy.bincount(index, minlength=n_class ** 2).reshape(n_class, n_class)
    return confusion


def calc_semantic_segmentation_iou(confusion: numpy.ndarray) -> numpy.ndarray:
    """Calculates the IoU of each class from a confusion matrix.

    The IoU of class :math:`i` is :math:`N_{ii} / (\\sum_j N_{ij} + \\sum_j N_{ji} - N_{ii})`,
    where :math:`N_{ij}` is the number of pixels of ground truth class :math:`i` predicted as
    class :math:`j`.

    Args:
        confusion (~numpy.ndarray): A confusion matrix of shape
            :math:`(n\\_class, n\\_class)`, as :func:`calc_semantic_segmentation_confusion`
            returns.

    Returns:
        ~numpy.ndarray: float64 of shape :math:`(n\\_class,)`; NaN for a class that is
        neither in the ground truth nor predicted.

    Raises:
        ValueError: If ``confusion`` is not a square matrix.
    """
    confusion = _as_confusion('calc_semantic_segmentation_iou', confusion)
    diagonal = numpy.diag(confusion)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        return diagonal / (confusion.sum(axis=1) + confusion.sum(axis=0) - diagonal)


def eval_semantic_segmentation(pred_labels: Iterable, gt_labels: Iterable) -> dict:
    """Evaluates semantic segmentations: IoU, pixel accuracy and class accuracy.

    With :math:`N_{ij}` the number of pixels of ground truth class :math:`i` predicted as
    class :math:`j` (pixels labelled :math:`-1` in the ground truth ignored) and :math:`k`
    classes:

    * IoU of class :math:`i`: :math:`N_{ii} / (\\sum_j N_{ij} + \\sum_j N_{ji} - N_{ii})`
    * pixel accuracy: :math:`\\sum_i N_{ii} / \\sum_i \\sum_j N_{ij}`
    * class accuracy of class :math:`i`: :math:`N_{ii} / \\sum_j N_{ij}`

    and the means over the classes whose value is not NaN. The number of classes is the
    largest label in the inputs plus one.

    Args:
        pred_labels (iterable of numpy.ndarray): Integer label maps of shape :math:`(H, W)`,
            read one at a time (see :func:`calc_semantic_segmentation_confusion`).
        gt_labels (iterable of numpy.ndarray): Integer label maps of the same shapes;
            :math:`-1` marks ignored pixels.

    Returns:
        dict: with keys

        * **iou** (*numpy.ndarray*): float64 of shape :math:`(n\\_class,)`.
        * **miou** (*float*): the mean of ``iou``, NaN entries skipped.
        * **pixel_accuracy** (*float*): the fraction of the pixels that are not ignored that
          are labelled correctly.
        * **class_accuracy** (*numpy.ndarray*): float64 of shape :math:`(n\\_class,)`; NaN for
          a class absent from the ground truth.
        * **mean_class_accuracy** (*float*): the mean of ``class_accuracy``, NaN skipped.
        * **protocol** (*dict*): the metric name, the ignored label and :math:`n\\_class`.

    Raises:
        ValueError: As :func:`calc_semantic_segmentation_confusion`.
        TypeError: As :func:`calc_semantic_segmentation_confusion`.
    """
    confusion = calc_semantic_segmentation_confusion(pred_labels, gt_labels)
    iou = calc_semantic_segmentation_iou(confusion)
    diagonal = numpy.diag(confusion)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        pixel_accuracy = diagonal.sum() / confusion.sum()
        class_accuracy = diagonal / confusion.sum(axis=1)
    return {'iou': iou, 'miou': nanmean(iou), 'pixel_accuracy': float(pixel_accuracy),
            'class_accuracy': class_accuracy,
            'mean_class_accuracy': nanmean(class_accuracy),
            'protocol': {'metric': 'semantic_segmentation', 'ignore_label': -1,
                         'n_class': len(confusion)}}


def _as_label_map(fname: str, name: str, index: int, x) -> numpy.ndarray:
    label = numpy.asarray(x)
    if label.ndim != 2:
        raise ValueError(f'{fname}: {name}[{index}] must have shape (H, W), but got shape '
                         f'{label.shape}')
    if label.dtype.kind not in 'iu':
        raise TypeError(f'{fname}: {name}[{index}] must be an integer array, but got dtype '
                        f'{label.dtype}')
    return label


def _as_confusion(fname: str, x) -> numpy.ndarray:
    confusion = numpy.asarray(x)
    if confusion.ndim != 2 or confusion.shape[0] != confusion.shape[1]:
        raise ValueError(f'{fname}: confusion must have shape (n_class, n_class), but got '
                         f'shape {confusion.shape}')
    return confusion

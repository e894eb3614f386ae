"""Masks on the image and their ``M x M`` codes in boxes (ChainerCV's ``segm_to_mask`` and
``mask_to_segm``): Mask R-CNN predicts, and is trained on, a square grid over each box.

Both directions pad the grid by one cell on each side (the box widened by ``(M + 2) / M``
about its centre, then rounded to whole pixels) and resample with OpenCV's bilinear
interpolation (pixel centres scaled, positions clamped at the border: ``INTER_LINEAR``), as
ChainerCV does, so that the edge of a mask fades to the zero padding instead of repeating.
:func:`paste_segm_torchvision` pastes the grids as torchvision's Mask R-CNN does."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

import framework.functions as F
from framework import backend

#: The cells of zeros around the grid.
PAD = 1


def _widened_pixels(bbox: numpy.ndarray, segm_size: int) -> numpy.ndarray:
    """The boxes widened about their centres by ``(segm_size + 2 PAD) / segm_size``, rounded
    half to even to whole pixels: ``(R, 4)`` int64."""
    bbox = bbox.astype(numpy.float64)
    centre = (bbox[:, :2] + bbox[:, 2:]) / 2
    half = (bbox[:, 2:] - bbox[:, :2]) / 2 * ((segm_size + 2 * PAD) / segm_size)
    return numpy.round(numpy.concatenate((centre - half, centre + half), axis=1)).astype(
        numpy.int64)


def _resize(array: numpy.ndarray, size: tuple[int, int]) -> numpy.ndarray:
    """OpenCV's bilinear resize of a float ``(H, W)`` array to ``size``."""
    return F.resize_images(array[None, None], size, align_corners=False).array[0, 0]


def _clipped(box, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """The part of an integer box inside an image of ``size``, possibly empty."""
    H, W = size
    return (max(int(box[0]), 0), max(int(box[1]), 0),
            max(min(int(box[2]), H), 0), max(min(int(box[3]), W), 0))


def _check_bbox(fname: str, bbox) -> numpy.ndarray:
    bbox = numpy.asarray(backend.to_cpu(bbox))
    if bbox.ndim != 2 or bbox.shape[1] != 4:
        raise ValueError(f'{fname}: bbox must be (R, 4), but got shape {bbox.shape}')
    return bbox


def segm_to_mask(segm, bbox, size: Sequence[int]) -> numpy.ndarray:
    """Pastes the ``M x M`` grid of each box onto the image: the masks Mask R-CNN predicts.

    The grid, padded with a cell of zeros on each side, is resized bilinearly to the widened
    box (see the module), thresholded above 0.5 and cut to the image. A box that rounding
    leaves without height or width gives an empty mask.

    Args:
        segm (array): ``(R, M, M)`` float, the probability of each cell of each box.
        bbox (array): ``(R, 4)`` float, ``(y_min, x_min, y_max, x_max)`` in the image's
            pixels; a box may reach over the image's edges.
        size (pair of int): ``(H, W)`` of the image.

    Returns:
        numpy.ndarray: ``(R, H, W)`` bool, on the CPU.

    Raises:
        ValueError: ``segm`` is not ``(R, M, M)``, ``bbox`` not ``(R, 4)`` with the same ``R``,
            or ``size`` not two non-negative ints.
    """
    fname = 'segm_to_mask'
    segm = numpy.asarray(backend.to_cpu(segm))
    bbox = _check_bbox(fname, bbox)
    if segm.ndim != 3 or segm.shape[1] != segm.shape[2] or segm.shape[1] == 0:
        raise ValueError(f'{fname}: segm must be (R, M, M) with M > 0, '
                         f'but got shape {segm.shape}')
    if len(segm) != len(bbox):
        raise ValueError(f'{fname}: segm and bbox must have one entry per box, but got '
                         f'{len(segm)} and {len(bbox)}')
    if len(size) != 2 or any(int(s) != s or s < 0 for s in size):
        raise ValueError(f'{fname}: size must be (H, W), two non-negative ints, '
                         f'but got {size!r}')
    size = (int(size[0]), int(size[1]))
    segm_size = segm.shape[1]
    mask = numpy.zeros((len(bbox), *size), bool)
    canvas = numpy.zeros((segm_size + 2 * PAD,) * 2)
    for i, (box, cells) in enumerate(zip(_widened_pixels(bbox, segm_size), segm)):
        height, width = int(box[2] - box[0]), int(box[3] - box[1])
        y_min, x_min, y_max, x_max = _clipped(box, size)
        if height <= 0 or width <= 0 or y_max <= y_min or x_max <= x_min:
            continue
        canvas[PAD:-PAD, PAD:-PAD] = cells
        pasted = _resize(canvas, (height, width)) > 0.5
        mask[i, y_min:y_max, x_min:x_max] = pasted[y_min - box[0]:y_max - box[0],
                                                   x_min - box[1]:x_max - box[1]]
    return mask


def paste_segm_torchvision(segm, bbox, size: Sequence[int]) -> numpy.ndarray:
    """Pastes the ``M x M`` grid of each box onto the image as torchvision's
    ``paste_masks_in_image`` does, thresholded above 0.5 (what its masks are compared with).

    The grid is padded with a cell of zeros on each side; the box is widened about its
    centre by ``(M + 2) / M`` in float32 and its corners truncated towards zero to whole
    pixels ``(y0, x0, y1, x1)``; the padded grid is resized bilinearly (pixel centres scaled,
    positions clamped at the border, as :func:`segm_to_mask`) to ``y1 - y0 + 1`` rows and
    ``x1 - x0 + 1`` columns, one more than ChainerCV's, and pasted with its top-left corner at
    ``(y0, x0)``, cut to the image.

    Args:
        segm (array): ``(R, M, M)`` float, the probability of each cell of each box.
        bbox (array): ``(R, 4)`` float, ``(y_min, x_min, y_max, x_max)`` in the image's
            pixels.
        size (pair of int): ``(H, W)`` of the image.

    Returns:
        numpy.ndarray: ``(R, H, W)`` bool, on the CPU.

    Raises:
        ValueError: ``segm`` is not ``(R, M, M)`` or ``bbox`` not ``(R, 4)`` with the same
            ``R``.
    """
    fname = 'paste_segm_torchvision'
    segm = numpy.asarray(backend.to_cpu(segm))
    bbox = _check_bbox(fname, bbox).astype(numpy.float32)
    if segm.ndim != 3 or segm.shape[1] != segm.shape[2] or segm.shape[1] == 0 \
            or len(segm) != len(bbox):
        raise ValueError(f'{fname}: segm must be (R, M, M) with M > 0 and R boxes, but got '
                         f'shape {segm.shape} for {len(bbox)} boxes')
    H, W = int(size[0]), int(size[1])
    segm_size = segm.shape[1]
    scale = numpy.float32((segm_size + 2 * PAD) / segm_size)
    half = (bbox[:, 2:] - bbox[:, :2]) * numpy.float32(0.5) * scale
    centre = (bbox[:, 2:] + bbox[:, :2]) * numpy.float32(0.5)
    boxes = numpy.trunc(numpy.concatenate((centre - half, centre + half), axis=1)).astype(
        numpy.int64)
    mask = numpy.zeros((len(bbox), H, W), bool)
    canvas = numpy.zeros((segm_size + 2 * PAD,) * 2, numpy.float32)
    for i, (box, cells) in enumerate(zip(boxes, segm)):
        y0, x0, y1, x1 = (int(v) for v in box)
        height, width = max(y1 - y0 + 1, 1), max(x1 - x0 + 1, 1)
        top, left, bottom, right = max(y0, 0), max(x0, 0), min(y1 + 1, H), min(x1 + 1, W)
        if bottom <= top or right <= left:
            continue
        canvas[PAD:-PAD, PAD:-PAD] = cells
        pasted = _resize(canvas, (height, width)) > 0.5
        mask[i, top:bottom, left:right] = pasted[top - y0:bottom - y0, left - x0:right - x0]
    return mask


def mask_to_segm(mask, bbox, segm_size: int, index=None) -> numpy.ndarray:
    """The ``M x M`` grid of a mask in each box: the training targets of Mask R-CNN's head.

    The mask, cut to the widened box (see the module; zeros where the box leaves the image),
    is resized bilinearly to ``M + 2`` cells a side and stripped of the outer ring. A cell is
    1 only where the resized mask is 1, i.e. every pixel its bilinear sample reads is in the
    mask (ChainerCV truncates the resized mask to integers); a box outside the image gives
    zeros.

    Args:
        mask (array): ``(N, H, W)`` bool, the masks of the image.
        bbox (array): ``(R, 4)`` float, ``(y_min, x_min, y_max, x_max)`` in the image's
            pixels.
        segm_size (int): ``M``, the side of the grid.
        index (array or None): ``(R,)`` int, the mask of each box; None pairs box ``i`` with
            mask ``i`` (then ``R = N``).

    Returns:
        numpy.ndarray: ``(R, M, M)`` float32 of zeros and ones, on the CPU.

    Raises:
        ValueError: ``mask`` is not ``(N, H, W)``, ``bbox`` not ``(R, 4)``, ``segm_size`` not
            a positive int, or ``index`` not ``(R,)`` of indices of ``mask`` (or, without
            ``index``, ``R != N``).
    """
    fname = 'mask_to_segm'
    mask = numpy.asarray(backend.to_cpu(mask))
    bbox = _check_bbox(fname, bbox)
    if mask.ndim != 3:
        raise ValueError(f'{fname}: mask must be (N, H, W), but got shape {mask.shape}')
    if isinstance(segm_size, bool) or not isinstance(segm_size, (int, numpy.integer)) \
            or segm_size <= 0:
        raise ValueError(f'{fname}: segm_size must be a positive int, but got {segm_size!r}')
    if index is None:
        if len(mask) != len(bbox):
            raise ValueError(f'{fname}: without index, mask and bbox must have one entry per '
                             f'box, but got {len(mask)} and {len(bbox)}')
        index = numpy.arange(len(bbox))
    index = numpy.asarray(backend.to_cpu(index))
    if index.shape != (len(bbox),) or (index.dtype.kind not in 'iu' and len(index)) \
            or ((index < 0) | (index >= len(mask))).any():
        raise ValueError(f'{fname}: index must be (R,) = ({len(bbox)},) ints in '
                         f'[0, {len(mask)}), but got {index!r}')
    segm = numpy.zeros((len(bbox), segm_size, segm_size), numpy.float32)
    for i, (box, j) in enumerate(zip(_widened_pixels(bbox, segm_size), index)):
        y_min, x_min, y_max, x_max = _clipped(box, mask.shape[1:])
        if y_max <= y_min or x_max <= x_min:
            continue
        crop = numpy.zeros((int(box[2] - box[0]), int(box[3] - box[1])))
        crop[y_min - box[0]:y_max - box[0], x_min - box[1]:x_max - box[1]] = \
            mask[j, y_min:y_max, x_min:x_max]
        # Each cell reads at most four pixels with weights of at least 1 / (2 (M + 2)) per
        # axis: a pixel out of the mask lowers it by far more than the rounding.
        resized = _resize(crop, (segm_size + 2 * PAD,) * 2)[PAD:-PAD, PAD:-PAD]
        segm[i] = resized >= 1 - 1e-6
    return segm

"""Cropping a random region that overlaps the boxes as SSD's sampler asks."""

from __future__ import annotations

import numpy

from vision.transforms import _random
from vision.transforms._checks import check_image, check_rng

_CONSTRAINTS = ((0.1, None), (0.3, None), (0.5, None), (0.7, None), (0.9, None), (None, 1))


def _iou_with(bbox: list, crop: tuple[int, int, int, int]) -> list[float]:
    """The IoU of each box ``(y_min, x_min, y_max, x_max)`` with one crop ``(top, left,
    bottom, right)``; NaN where both have no area (as NumPy's ``0 / 0``).

    Python's floats rather than NumPy's arrays: a sampling tries up to 300 crops on a few
    boxes, where the calls to NumPy cost a hundred times the arithmetic."""
    top, left, bottom, right = crop
    crop_area = (bottom - top) * (right - left)
    ious = []
    for y_min, x_min, y_max, x_max in bbox:
        inter = (max(min(y_max, bottom) - max(y_min, top), 0)
                 * max(min(x_max, right) - max(x_min, left), 0))
        union = (y_max - y_min) * (x_max - x_min) + crop_area - inter
        ious.append(inter / union if union else float('nan'))
    return ious


def random_crop_with_bbox_constraints(
        img: numpy.ndarray, bbox: numpy.ndarray, min_scale: float = 0.3,
        max_scale: float = 1, max_aspect_ratio: float = 2, constraints=None,
        max_trial: int = 50, return_param: bool = False, *,
        rng: numpy.random.Generator | None = None
) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Crops a random region whose overlap with the boxes meets one of the constraints (the
    sampler of SSD [#]_, ChainerCV's ``random_crop_with_bbox_constraints``).

    For each constraint ``(min_iou, max_iou)`` up to ``max_trial`` regions are drawn (a scale
    :math:`s` uniform in ``[min_scale, max_scale)``, an aspect ratio :math:`a` uniform in
    :math:`[\\max(1 / max\\_aspect\\_ratio, s^2), \\min(max\\_aspect\\_ratio, 1 / s^2)]`, a
    region of :math:`(\\lfloor H s / \\sqrt{a} \\rfloor, \\lfloor W s \\sqrt{a} \\rfloor)` at
    a uniform place); the first whose IoU with every box lies in ``[min_iou, max_iou]`` is
    a candidate. One candidate, or the whole image, is then chosen uniformly. Without boxes
    the whole image is returned. Boxes follow with
    ``crop_bbox(bbox, y_slice=param['y_slice'], x_slice=param['x_slice'],
    allow_outside_center=False, return_param=True)``.

    .. [#] Wei Liu, Dragomir Anguelov, Dumitru Erhan, Christian Szegedy, Scott Reed,
       Cheng-Yang Fu, Alexander C. Berg. SSD: Single Shot MultiBox Detector. ECCV 2016.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        bbox (~numpy.ndarray): Boxes of shape :math:`(R, 4)`, ``(y_min, x_min, y_max,
            x_max)``.
        min_scale, max_scale (float): The range of the scale :math:`s` of a region.
        max_aspect_ratio (float): The largest aspect ratio :math:`a` (and its inverse the
            smallest).
        constraints (iterable of tuples): ``(min_iou, max_iou)`` pairs, None for no bound.
            The default is SSD's: ``((0.1, None), (0.3, None), (0.5, None), (0.7, None),
            (0.9, None), (None, 1))``.
        max_trial (int): The draws per constraint.
        return_param (bool): If :obj:`True`, what was chosen is returned too.
        rng (numpy.random.Generator): The source of the draws. If :obj:`None` (default),
            Python's global :mod:`random` state is used, drawing as ChainerCV did.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The cropped image (a view of ``img``); with ``return_param``, also a dict with

        * **constraint** (*tuple or None*): the ``(min_iou, max_iou)`` the region met, with
          0 and 1 for the missing bounds; None for the whole image.
        * **y_slice** (*slice*): the rows of the region.
        * **x_slice** (*slice*): the columns of the region.
    """
    fname = 'random_crop_with_bbox_constraints'
    _, H, W = check_image(fname, img)
    check_rng(fname, rng)
    bbox = numpy.asarray(bbox, numpy.float64)
    if bbox.ndim != 2 or bbox.shape[1] != 4:
        raise ValueError(f'{fname}: bbox must have shape (R, 4), but got shape {bbox.shape}')
    if constraints is None:
        constraints = _CONSTRAINTS
    params = [{'constraint': None, 'y_slice': slice(0, H), 'x_slice': slice(0, W)}]
    if len(bbox) == 0:
        constraints = ()
    boxes = bbox.tolist()
    for min_iou, max_iou in constraints:
        min_iou = 0 if min_iou is None else min_iou
        max_iou = 1 if max_iou is None else max_iou
        for _ in range(max_trial):
            scale = _random.uniform(rng, min_scale, max_scale)
            aspect_ratio = _random.uniform(rng, max(1 / max_aspect_ratio, scale * scale),
                                           min(max_aspect_ratio, 1 / (scale * scale)))
            crop_h = int(H * scale / numpy.sqrt(aspect_ratio))
            crop_w = int(W * scale * numpy.sqrt(aspect_ratio))
            top = _random.randint(rng, 0, max(H - crop_h - 1, 0))
            left = _random.randint(rng, 0, max(W - crop_w - 1, 0))
            iou = _iou_with(boxes, (top, left, top + crop_h, left + crop_w))
            # False for a NaN, as NumPy's min and max of the IoUs would then be.
            if all(min_iou <= value <= max_iou for value in iou):
                params.append({'constraint': (min_iou, max_iou),
                               'y_slice': slice(top, top + crop_h),
                               'x_slice': slice(left, left + crop_w)})
                break
    param = params[_random.randint(rng, 0, len(params) - 1)]
    img = img[:, param['y_slice'], param['x_slice']]
    return (img, param) if return_param else img

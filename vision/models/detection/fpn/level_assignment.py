"""The pyramid level of each region (Lin et al., 2017, equation 1) and the regions of each
level: what the RoI heads of the FPN detectors (ChainerCV's ``BboxHead.distribute``,
``MaskHead.distribute``) share."""

from __future__ import annotations

import numpy

from framework import backend


def assign_levels(rois, n_level: int, canonical_level: int = 2,
                  canonical_scale: float = 224):
    """The level of each region: :math:`\\lfloor \\log_2(\\sqrt{hw} / s + 10^{-6}) \\rfloor + k`
    with :math:`s` ``canonical_scale`` and :math:`k` ``canonical_level``, clipped to
    ``[0, n_level - 2]`` (the coarsest level holds no region, as in ChainerCV).

    Args:
        rois (array): ``(R, 4)`` float32, ``(y_min, x_min, y_max, x_max)`` in input pixels.
        n_level (int): the levels of the pyramid.
        canonical_level (int): the level of a region of side ``canonical_scale``.
        canonical_scale (float): the side of a region of ``canonical_level``.

    Returns:
        array: ``(R,)`` int32 on ``rois``' device.
    """
    xp = backend.get_array_module(rois)
    size = xp.sqrt(xp.prod(rois[:, 2:] - rois[:, :2], axis=1))
    level = xp.floor(xp.log2(size / canonical_scale + 1e-6)).astype(numpy.int32)
    return xp.clip(level + canonical_level, 0, n_level - 2).astype(numpy.int32)


def split_by_level(rois, roi_indices, level, n_level: int):
    """The regions of each level, in their order within it.

    Args:
        rois (array): ``(R, 4)`` float32.
        roi_indices (array): ``(R,)`` int32, the image of each region.
        level (array): ``(R,)`` int32, from :func:`assign_levels`.
        n_level (int): the levels of the pyramid.

    Returns:
        tuple: ``(rois, roi_indices, order)``: lists of ``n_level`` arrays ``(R_l, 4)`` and
        ``(R_l,)``, and ``order`` ``(R,)`` int64, where region ``i`` went:
        ``concatenate(rois)[order[i]] == rois[i]``.
    """
    xp = backend.get_array_module(rois)
    masks = [level == lv for lv in range(n_level)]
    order = xp.argsort(xp.concatenate([xp.flatnonzero(m) for m in masks]))
    return [rois[m] for m in masks], [roi_indices[m] for m in masks], order

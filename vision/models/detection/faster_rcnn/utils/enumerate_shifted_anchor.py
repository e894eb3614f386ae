"""The anchors of every cell of a feature map."""

from __future__ import annotations

import numpy

from framework import backend


def enumerate_shifted_anchor(anchor_base, feat_stride: float, height: int, width: int):
    """Shifts the anchors of one cell to every cell of a ``height x width`` feature map.

    Args:
        anchor_base (array): ``(A, 4)``, the anchors of the cell at the origin
            (:func:`generate_anchor_base`).
        feat_stride (float): the distance between cells, in input pixels.
        height (int): the feature map's height.
        width (int): the feature map's width.

    Returns:
        array: ``(height * width * A, 4)`` float32 on ``anchor_base``'s device, cell-major in
        row-major order (anchor ``a`` of cell ``(y, x)`` is row ``(y * width + x) * A + a``),
        the order of the RPN's outputs.
    """
    xp = backend.get_array_module(anchor_base)
    shift_y = xp.arange(0, height * feat_stride, feat_stride)[:height]
    shift_x = xp.arange(0, width * feat_stride, feat_stride)[:width]
    shift_x, shift_y = xp.meshgrid(shift_x, shift_y)
    shift = xp.stack((shift_y.ravel(), shift_x.ravel(), shift_y.ravel(), shift_x.ravel()),
                     axis=1)
    anchor = anchor_base[None, :, :] + shift[:, None, :]
    return anchor.reshape((-1, 4)).astype(numpy.float32)

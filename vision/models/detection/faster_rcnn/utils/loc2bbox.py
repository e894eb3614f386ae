"""Decoding bounding box offsets into boxes (ChainerCV's ``loc2bbox``)."""

from __future__ import annotations

from framework import backend


def loc2bbox(src_bbox, loc):
    """Decodes bounding boxes from offsets and scales relative to source boxes.

    With a source box of centre :math:`(p_y, p_x)` and size :math:`(p_h, p_w)` and an offset
    :math:`(t_y, t_x, t_h, t_w)`, the decoded box has centre :math:`(t_y p_h + p_y,
    t_x p_w + p_x)` and size :math:`(p_h e^{t_h}, p_w e^{t_w})`. It is the inverse of
    :func:`bbox2loc`.

    Args:
        src_bbox (array): ``(R, 4)``, the source boxes ``(y_min, x_min, y_max, x_max)``; cast to
            ``loc``'s dtype.
        loc (array): ``(R, 4 * K)``, float, each group of four ``(t_y, t_x, t_h, t_w)``; ``K``
            offsets per box decode ``K`` boxes from it.

    Returns:
        array: ``(R, 4 * K)`` of ``loc``'s dtype, the decoded boxes ``(y_min, x_min, y_max,
        x_max)``, on ``loc``'s device.
    """
    xp = backend.get_array_module(src_bbox, loc)
    if src_bbox.shape[0] == 0:
        return xp.zeros((0, loc.shape[1]), dtype=loc.dtype)
    src_bbox = src_bbox.astype(loc.dtype, copy=False)
    src_height = src_bbox[:, 2:3] - src_bbox[:, 0:1]
    src_width = src_bbox[:, 3:4] - src_bbox[:, 1:2]
    src_ctr_y = src_bbox[:, 0:1] + 0.5 * src_height
    src_ctr_x = src_bbox[:, 1:2] + 0.5 * src_width
    ctr_y = loc[:, 0::4] * src_height + src_ctr_y
    ctr_x = loc[:, 1::4] * src_width + src_ctr_x
    h = xp.exp(loc[:, 2::4]) * src_height
    w = xp.exp(loc[:, 3::4]) * src_width
    dst_bbox = xp.empty(loc.shape, dtype=loc.dtype)
    dst_bbox[:, 0::4] = ctr_y - 0.5 * h
    dst_bbox[:, 1::4] = ctr_x - 0.5 * w
    dst_bbox[:, 2::4] = ctr_y + 0.5 * h
    dst_bbox[:, 3::4] = ctr_x + 0.5 * w
    return dst_bbox

"""Encoding boxes as offsets and scales relative to source boxes (ChainerCV's ``bbox2loc``)."""

from __future__ import annotations

from framework import backend


def bbox2loc(src_bbox, dst_bbox):
    """Encodes the offsets and scales that move source boxes onto destination boxes.

    With a source box of centre :math:`(p_y, p_x)` and size :math:`(p_h, p_w)` and a
    destination box of centre :math:`(g_y, g_x)` and size :math:`(g_h, g_w)`, the offset is
    :math:`t_y = (g_y - p_y) / p_h`, :math:`t_x = (g_x - p_x) / p_w`,
    :math:`t_h = \\log(g_h / p_h)`, :math:`t_w = \\log(g_w / p_w)`. Source sizes below the
    dtype's machine epsilon are raised to it. It is the inverse of :func:`loc2bbox`.

    Args:
        src_bbox (array): ``(R, 4)``, float, the source boxes ``(y_min, x_min, y_max, x_max)``.
        dst_bbox (array): ``(R, 4)``, the destination boxes.

    Returns:
        array: ``(R, 4)`` of ``src_bbox``'s dtype, each ``(t_y, t_x, t_h, t_w)``.
    """
    xp = backend.get_array_module(src_bbox, dst_bbox)
    height = src_bbox[:, 2] - src_bbox[:, 0]
    width = src_bbox[:, 3] - src_bbox[:, 1]
    ctr_y = src_bbox[:, 0] + 0.5 * height
    ctr_x = src_bbox[:, 1] + 0.5 * width
    base_height = dst_bbox[:, 2] - dst_bbox[:, 0]
    base_width = dst_bbox[:, 3] - dst_bbox[:, 1]
    base_ctr_y = dst_bbox[:, 0] + 0.5 * base_height
    base_ctr_x = dst_bbox[:, 1] + 0.5 * base_width
    eps = xp.finfo(height.dtype).eps
    height = xp.maximum(height, eps)
    width = xp.maximum(width, eps)
    loc = xp.stack(((base_ctr_y - ctr_y) / height, (base_ctr_x - ctr_x) / width,
                    xp.log(base_height / height), xp.log(base_width / width)), axis=1)
    return loc.astype(src_bbox.dtype, copy=False)

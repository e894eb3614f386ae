"""Cropping the centre of an image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_crop_size, check_image


def center_crop(img: numpy.ndarray, size: tuple[int, int], return_param: bool = False,
                copy: bool = False) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Crops the centre of an image.

    The offsets are ``int(round((H - H_out) / 2))`` and the same along x, with Python's
    rounding of halves to even, as in ChainerCV. Boxes follow with
    ``crop_bbox(bbox, y_slice=param['y_slice'], x_slice=param['x_slice'])``.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        size (tuple of two ints): The size of the crop, :math:`(H_{out}, W_{out})`, at most
            :math:`(H, W)`.
        return_param (bool): If :obj:`True`, the slices are returned too.
        copy (bool): If :obj:`False` (default), a view of ``img`` is returned; if :obj:`True`,
            a new array.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The crop :math:`(C, H_{out}, W_{out})`; with ``return_param``, also a dict with

        * **y_slice** (*slice*): the rows of the crop, ``out_img = img[:, y_slice, x_slice]``.
        * **x_slice** (*slice*): the columns of the crop.
    """
    _, H, W = check_image('center_crop', img)
    out_H, out_W = check_crop_size('center_crop', size, (H, W))
    y_offset = int(round((H - out_H) / 2))
    x_offset = int(round((W - out_W) / 2))
    y_slice = slice(y_offset, y_offset + out_H)
    x_slice = slice(x_offset, x_offset + out_W)
    out = img[:, y_slice, x_slice]
    if copy:
        out = out.copy()
    if return_param:
        return out, {'y_slice': y_slice, 'x_slice': x_slice}
    return out

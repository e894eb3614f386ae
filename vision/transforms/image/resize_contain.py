"""Fitting an image into a canvas while keeping its aspect ratio (letterboxing)."""

from __future__ import annotations

import numpy
from PIL import Image

from vision.transforms._checks import check_fill, check_image, check_size
from vision.transforms.image.resize import resize


def resize_contain(img: numpy.ndarray, size: tuple[int, int], fill=0,
                   interpolation: int | str = Image.BILINEAR, return_param: bool = False
                   ) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Fits an image into a canvas of the given size, keeping its aspect ratio.

    An image larger than the canvas (in either direction) is shrunk by the largest factor
    that makes it fit, to ``(int(H * scale), int(W * scale))`` (at least one pixel each, where
    ChainerCV would ask for none); a smaller one keeps its size.
    It is then placed at the centre of the canvas (offsets ``(size - scaled) // 2``) and the
    rest is filled with ``fill``. Boxes follow with ``resize_bbox(bbox, (H, W),
    param['scaled_size'])`` then ``translate_bbox(..., param['y_offset'],
    param['x_offset'])``.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        size (tuple of two ints): The size of the canvas, :math:`(H_{out}, W_{out})`.
        fill (float, tuple or ~numpy.ndarray): The value of the padding: one number, or one
            per channel (shape :math:`(C,)` or :math:`(C, 1, 1)`).
        interpolation (int or str): The filter used to shrink; see
            :func:`~vision.transforms.resize`.
        return_param (bool): If :obj:`True`, the placement is returned too.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The canvas :math:`(C, H_{out}, W_{out})`, of the dtype of ``img``; with
        ``return_param``, also a dict with

        * **y_offset** (*int*): the row of the canvas where the image's top row is.
        * **x_offset** (*int*): the column of the canvas where the image's left column is.
        * **scaled_size** (*tuple*): the size :math:`(H', W')` of the image on the canvas.
    """
    C, H, W = check_image('resize_contain', img)
    out_H, out_W = check_size('resize_contain', 'size', size)
    fill = check_fill('resize_contain', fill, C)
    scale = min(out_H / H, out_W / W, 1.)
    scaled_size = (max(int(H * scale), 1), max(int(W * scale), 1))
    if scale < 1:
        img = resize(img, scaled_size, interpolation=interpolation)
    _, scaled_H, scaled_W = img.shape
    y_offset = (out_H - scaled_H) // 2
    x_offset = (out_W - scaled_W) // 2

    out = numpy.empty((C, out_H, out_W), dtype=img.dtype)
    out[:] = fill
    out[:, y_offset:y_offset + scaled_H, x_offset:x_offset + scaled_W] = img
    if return_param:
        return out, {'y_offset': y_offset, 'x_offset': x_offset, 'scaled_size': scaled_size}
    return out

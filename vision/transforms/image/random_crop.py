"""Cropping a random region of an image."""

from __future__ import annotations

import numpy

from vision.transforms import _random
from vision.transforms._checks import check_crop_size, check_image, check_rng


def random_crop(img: numpy.ndarray, size: tuple[int, int], return_param: bool = False,
                copy: bool = False, *,
                rng: numpy.random.Generator | None = None
                ) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Crops a region of the given size at a random place.

    Every placement inside the image is equally likely: the top offset is drawn from
    :math:`\\{0, ..., H - H_{out}\\}` and the left one from :math:`\\{0, ..., W - W_{out}\\}`.
    (ChainerCV 0.13 never drew the last offset, :math:`H - H_{out}`, unless it was 0.) Boxes
    follow with ``crop_bbox(bbox, y_slice=param['y_slice'], x_slice=param['x_slice'])``.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        size (tuple of two ints): The size of the crop, :math:`(H_{out}, W_{out})`, at most
            :math:`(H, W)`.
        return_param (bool): If :obj:`True`, the slices are returned too.
        copy (bool): If :obj:`False` (default), a view of ``img`` is returned; if :obj:`True`,
            a new array.
        rng (numpy.random.Generator): The source of the two offsets (``rng.integers``, y then
            x). If :obj:`None` (default), Python's global :mod:`random` state is used
            (``random.randint``), the module ChainerCV drew from.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The crop :math:`(C, H_{out}, W_{out})`; with ``return_param``, also a dict with

        * **y_slice** (*slice*): the rows of the crop, ``out_img = img[:, y_slice, x_slice]``.
        * **x_slice** (*slice*): the columns of the crop.
    """
    _, H, W = check_image('random_crop', img)
    out_H, out_W = check_crop_size('random_crop', size, (H, W))
    check_rng('random_crop', rng)
    y_offset = _random.randint(rng, 0, H - out_H)
    x_offset = _random.randint(rng, 0, W - out_W)
    y_slice = slice(y_offset, y_offset + out_H)
    x_slice = slice(x_offset, x_offset + out_W)
    out = img[:, y_slice, x_slice]
    if copy:
        out = out.copy()
    if return_param:
        return out, {'y_slice': y_slice, 'x_slice': x_slice}
    return out

"""Placing an image at a random place on a larger canvas ("zoom out")."""

from __future__ import annotations

import numpy

from vision.transforms import _random
from vision.transforms._checks import check_fill, check_image, check_rng


def random_expand(img: numpy.ndarray, max_ratio: float = 4, fill=0,
                  return_param: bool = False, *,
                  rng: numpy.random.Generator | None = None
                  ) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Expands an image: places it at a random place on a larger canvas filled with ``fill``.

    The canvas is :math:`(\\lfloor rH \\rfloor, \\lfloor rW \\rfloor)` for a ratio :math:`r`
    drawn uniformly from :math:`[1, max\\_ratio)`, and the image's top-left corner lands on
    offsets drawn uniformly from all the placements that keep it inside. This is the "zoom out"
    augmentation of SSD [#]_. Boxes and points follow with
    ``translate_bbox(bbox, param['y_offset'], param['x_offset'])``.

    .. [#] Wei Liu, Dragomir Anguelov, Dumitru Erhan, Christian Szegedy, Scott Reed,
       Cheng-Yang Fu, Alexander C. Berg. SSD: Single Shot MultiBox Detector. ECCV 2016.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        max_ratio (float): The largest expansion ratio (4 in the paper). If it is at most 1,
            ``img`` itself is returned, with ratio 1 and offsets 0.
        fill (float, tuple or ~numpy.ndarray): The value of the canvas: one number, or one
            per channel (shape :math:`(C,)` or :math:`(C, 1, 1)`).
        return_param (bool): If :obj:`True`, the ratio and offsets are returned too.
        rng (numpy.random.Generator): The source of the ratio (``rng.uniform``), then the y
            and x offsets (``rng.integers``). If :obj:`None` (default), Python's global
            :mod:`random` state is used (``random.uniform``, ``random.randint``), as in
            ChainerCV.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The canvas :math:`(C, \\lfloor rH \\rfloor, \\lfloor rW \\rfloor)`, of the dtype of
        ``img``; with ``return_param``, also a dict with

        * **ratio** (*float*): the ratio :math:`r`.
        * **y_offset** (*int*): the row of the canvas where the image's top row is.
        * **x_offset** (*int*): the column of the canvas where the image's left column is.
    """
    C, H, W = check_image('random_expand', img)
    fill = check_fill('random_expand', fill, C)
    check_rng('random_expand', rng)
    if max_ratio <= 1:
        return (img, {'ratio': 1, 'y_offset': 0, 'x_offset': 0}) if return_param else img

    ratio = _random.uniform(rng, 1, max_ratio)
    out_H, out_W = int(H * ratio), int(W * ratio)
    y_offset = _random.randint(rng, 0, out_H - H)
    x_offset = _random.randint(rng, 0, out_W - W)

    out = numpy.empty((C, out_H, out_W), dtype=img.dtype)
    out[:] = fill
    out[:, y_offset:y_offset + H, x_offset:x_offset + W] = img
    if return_param:
        return out, {'ratio': ratio, 'y_offset': y_offset, 'x_offset': x_offset}
    return out

"""Rotating an image by an angle."""

from __future__ import annotations

import math

import numpy
from PIL import Image

from vision._backend_switch import check_backend
from vision.transforms._checks import check_fill, check_image
from vision.transforms.image._pil import ROTATE_FILTERS, map_channels, resampling_filter


def rotate(img: numpy.ndarray, angle: float, expand: bool = True, fill=0,
           interpolation: int | str = Image.BILINEAR) -> numpy.ndarray:
    """Rotates an image by an angle in degrees, counter-clockwise, about its centre.

    Each channel is rotated by Pillow as a 32-bit float (mode ``'F'``) image, as ChainerCV's
    Pillow backend does. Multiples of 90 degrees are exact (Pillow transposes). Boxes follow
    with :func:`~vision.transforms.rotate_bbox` (``rotate_bbox(bbox, angle, (H, W),
    expand=expand)``).

    ChainerCV's switch ``chainer.config.cv_rotate_backend`` is honoured when Chainer is
    imported, as in :func:`~vision.transforms.resize`; the computation is always Pillow's.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`, :math:`H, W > 0`, of any
            real or boolean dtype.
        angle (float): The counter-clockwise rotation angle in degrees.
        expand (bool): If :obj:`True` (default), the output is enlarged to hold the whole
            rotated image (its size is Pillow's: the extent of the rotated corners, rounded
            outwards). If :obj:`False`, it keeps the size :math:`(H, W)`.
        fill (float or sequence of floats): The value of the pixels outside the rotated
            image: one for all channels, or one per channel.
        interpolation (int or str): :obj:`PIL.Image.NEAREST`, :obj:`PIL.Image.BILINEAR`
            (default) or :obj:`PIL.Image.BICUBIC`, or the names ``'nearest'``,
            ``'bilinear'``, ``'bicubic'``.

    Returns:
        ~numpy.ndarray: The rotated image, :math:`(C, H_{out}, W_{out})`, of the dtype of
        ``img`` (computed in float32; integers are rounded and clipped, booleans thresholded
        at 0.5).
    """
    C, H, W = check_image('rotate', img, 'fiub')
    if H == 0 or W == 0:
        raise ValueError(f'rotate: img must have a positive height and width, '
                         f'but got shape {img.shape}')
    fill = check_fill('rotate', fill, C)
    resample = resampling_filter('rotate', interpolation, ROTATE_FILTERS)
    check_backend('rotate', 'cv_rotate_backend')
    angle = float(angle)
    if C == 0:
        return numpy.empty((0,) + rotated_size((H, W), angle, expand), dtype=img.dtype)
    return map_channels(
        img, lambda ch, f: ch.rotate(angle, resample=resample, expand=expand, fillcolor=f),
        fill)


def rotated_size(size: tuple[int, int], angle: float, expand: bool) -> tuple[int, int]:
    """The size :math:`(H, W)` of an image of ``size`` after :func:`rotate`. This is Pillow's
    rule carried out with Pillow's arithmetic, step by step, so that the two agree to the
    pixel: the inverse rotation about the centre maps the corners, whose extent is rounded
    outwards."""
    H, W = size
    angle %= 360.0
    if not expand or angle in (0.0, 180.0):
        return H, W
    if angle in (90.0, 270.0):
        return W, H
    cos, sin = rotation_cos_sin(angle)
    a, b, d, e = cos, -sin, sin, cos
    cx, cy = W / 2, H / 2
    c = a * -cx + b * -cy + 0.0
    f = d * -cx + e * -cy + 0.0
    c += cx
    f += cy
    corners = ((0, 0), (W, 0), (W, H), (0, H))
    xs = [a * x + b * y + c for x, y in corners]
    ys = [d * x + e * y + f for x, y in corners]
    return (math.ceil(max(ys)) - math.floor(min(ys)),
            math.ceil(max(xs)) - math.floor(min(xs)))


def rotation_cos_sin(angle: float) -> tuple[float, float]:
    """``cos`` and ``sin`` of a counter-clockwise ``angle`` in degrees, as Pillow computes them
    (from ``angle % 360``, rounded to 15 decimals, so multiples of 90 give exact 0 and 1)."""
    rad = -math.radians(angle % 360.0)
    return round(math.cos(rad), 15), round(-math.sin(rad), 15)

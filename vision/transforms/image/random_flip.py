"""Flipping an image at random."""

from __future__ import annotations

import numpy

from vision.transforms import _random
from vision.transforms._checks import check_image, check_rng
from vision.transforms.image.flip import flip


def random_flip(img: numpy.ndarray, y_random: bool = False, x_random: bool = False,
                return_param: bool = False, copy: bool = False, *,
                rng: numpy.random.Generator | None = None
                ) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Flips an image vertically and/or horizontally, each with probability 1/2.

    Boxes and points follow with ``flip_bbox(bbox, (H, W), **param)`` and
    ``flip_point(point, (H, W), **param)``.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        y_random (bool): Flip vertically at random.
        x_random (bool): Flip horizontally at random.
        return_param (bool): If :obj:`True`, which flips were made is returned too.
        copy (bool): If :obj:`False` (default), a view of ``img`` is returned; if :obj:`True`,
            a new array.
        rng (numpy.random.Generator): The source of the coin flips (``rng.integers(2)``, y then
            x, each only when asked for). If :obj:`None` (default), Python's global
            :mod:`random` state is used (``random.choice([True, False])``), as in ChainerCV.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The image :math:`(C, H, W)`; with ``return_param``, also a dict with

        * **y_flip** (*bool*): whether the image was flipped vertically.
        * **x_flip** (*bool*): whether the image was flipped horizontally.
    """
    check_image('random_flip', img)
    check_rng('random_flip', rng)
    y_flip = _random.coin(rng) if y_random else False
    x_flip = _random.coin(rng) if x_random else False
    out = flip(img, y_flip=y_flip, x_flip=x_flip, copy=copy)
    if return_param:
        return out, {'y_flip': y_flip, 'x_flip': x_flip}
    return out

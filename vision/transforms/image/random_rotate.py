"""Rotating an image by a random multiple of 90 degrees."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_image, check_rng


def random_rotate(img: numpy.ndarray, return_param: bool = False, *,
                  rng: numpy.random.Generator | None = None
                  ) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Rotates an image counter-clockwise by 0, 90, 180 or 270 degrees, at random.

    The rotation is exact (``numpy.rot90``); the result is a view of ``img``. Boxes follow with
    ``rotate_bbox(bbox, 90 * param['k'], (H, W))``.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        return_param (bool): If :obj:`True`, the number of quarter turns is returned too.
        rng (numpy.random.Generator): The source of the number of quarter turns
            (``rng.integers(4)``). If :obj:`None` (default), NumPy's global state is used
            (``numpy.random.randint(4)``), as in ChainerCV.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The rotated image, :math:`(C, H, W)` or :math:`(C, W, H)`; with ``return_param``, also
        a dict with

        * **k** (*int*): the number of counter-clockwise quarter turns, in ``0 .. 3``.
    """
    check_image('random_rotate', img)
    check_rng('random_rotate', rng)
    k = int(numpy.random.randint(4) if rng is None else rng.integers(4))
    out = numpy.rot90(img, k, axes=(1, 2))
    if return_param:
        return out, {'k': k}
    return out

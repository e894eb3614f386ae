"""Cropping a region of random area and aspect ratio (Inception-style crops)."""

from __future__ import annotations

import math

import numpy

from vision.transforms import _random
from vision.transforms._checks import check_image, check_rng


def random_sized_crop(img: numpy.ndarray,
                      scale_ratio_range: tuple[float, float] = (0.08, 1),
                      aspect_ratio_range: tuple[float, float] = (3 / 4, 4 / 3),
                      return_param: bool = False, copy: bool = False, *,
                      rng: numpy.random.Generator | None = None
                      ) -> numpy.ndarray | tuple[numpy.ndarray, dict]:
    """Crops a region of random area and aspect ratio.

    The crop is

    + :math:`H_{crop} = \\lfloor \\sqrt{s H W a} \\rfloor`,
      :math:`W_{crop} = \\lfloor \\sqrt{s H W / a} \\rfloor`,
    + placed at :math:`y_{start} \\sim U\\{0, H - H_{crop}\\}`,
      :math:`x_{start} \\sim U\\{0, W - W_{crop}\\}`,

    where the scale ratio :math:`s \\sim U(s_1, s_2)` and :math:`a = b` or :math:`1 / b` with
    probability 1/2 each, :math:`b \\sim U(a_1, a_2)`, for :math:`(s_1, s_2)` =
    ``scale_ratio_range`` and :math:`(a_1, a_2)` = ``aspect_ratio_range``. So
    :math:`s \\approx H_{crop} W_{crop} / (H W)` and :math:`a \\approx H_{crop} / W_{crop}`.

    A pair :math:`(s, a)` is drawn up to ten times until the crop fits in the image
    (:math:`s \\le \\min(s_2, H / (W a), a W / H)`); if none fits, the last :math:`a` is kept
    and :math:`s` is drawn from :math:`U(\\min(s_1, s_{max}), s_{max})` with that bound
    :math:`s_{max}`, which can fall below :math:`s_1`. This is ChainerCV's rule, draw for draw.
    Boxes follow with ``crop_bbox(bbox, y_slice=param['y_slice'], x_slice=param['x_slice'])``.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        scale_ratio_range (tuple of two floats): :math:`(s_1, s_2)`; the default makes crops
            of 8% to 100% of the image, as used to train ResNets in Torch.
        aspect_ratio_range (tuple of two floats): :math:`(a_1, a_2)`; the default is
            :math:`(3/4, 4/3)`.
        return_param (bool): If :obj:`True`, the slices and ratios are returned too.
        copy (bool): If :obj:`False` (default), a view of ``img`` is returned; if :obj:`True`,
            a new array.
        rng (numpy.random.Generator): The source of the draws (``rng.uniform`` for :math:`b`,
            the coin and :math:`s`, ``rng.integers`` for the offsets). If :obj:`None`
            (default), Python's global :mod:`random` state is used (``random.uniform``,
            ``random.randint``), as in ChainerCV.

    Returns:
        ~numpy.ndarray or (~numpy.ndarray, dict):

        The crop :math:`(C, H_{crop}, W_{crop})`; with ``return_param``, also a dict with

        * **y_slice** (*slice*): the rows of the crop, ``out_img = img[:, y_slice, x_slice]``.
        * **x_slice** (*slice*): the columns of the crop.
        * **scale_ratio** (*float*): :math:`s`.
        * **aspect_ratio** (*float*): :math:`a`.
    """
    _, H, W = check_image('random_sized_crop', img)
    if H == 0 or W == 0:
        raise ValueError(f'random_sized_crop: img must have a positive height and width, '
                         f'but got shape {img.shape}')
    check_rng('random_sized_crop', rng)
    scale_ratio, aspect_ratio = _sample_ratios(rng, H, W, scale_ratio_range, aspect_ratio_range)

    H_crop = int(math.floor(numpy.sqrt(scale_ratio * H * W * aspect_ratio)))
    W_crop = int(math.floor(numpy.sqrt(scale_ratio * H * W / aspect_ratio)))
    y_start = _random.randint(rng, 0, H - H_crop)
    x_start = _random.randint(rng, 0, W - W_crop)
    y_slice = slice(y_start, y_start + H_crop)
    x_slice = slice(x_start, x_start + W_crop)

    out = img[:, y_slice, x_slice]
    if copy:
        out = out.copy()
    if return_param:
        return out, {'y_slice': y_slice, 'x_slice': x_slice,
                     'scale_ratio': scale_ratio, 'aspect_ratio': aspect_ratio}
    return out


def _sample_ratios(rng, H: int, W: int, scale_ratio_range, aspect_ratio_range
                   ) -> tuple[float, float]:
    s_low, s_high = scale_ratio_range
    for _ in range(10):
        aspect_ratio = _random.uniform(rng, aspect_ratio_range[0], aspect_ratio_range[1])
        if _random.uniform(rng, 0, 1) < 0.5:
            aspect_ratio = 1 / aspect_ratio
        # The largest scale ratio for which H_crop <= H and W_crop <= W.
        scale_ratio_max = min(s_high, H / (W * aspect_ratio), (aspect_ratio * W) / H)
        scale_ratio = _random.uniform(rng, s_low, s_high)
        if s_low <= scale_ratio <= scale_ratio_max:
            return scale_ratio, aspect_ratio
    return _random.uniform(rng, min(s_low, scale_ratio_max), scale_ratio_max), aspect_ratio

"""SSD's photometric distortions: brightness, contrast, saturation and hue."""

from __future__ import annotations

import numpy

from vision.transforms import _random
from vision.transforms._checks import check_image, check_rng


def _convert(x: numpy.ndarray, alpha: float = 1, beta: float = 0) -> numpy.ndarray:
    """``x * alpha + beta`` clipped to 0-255 and truncated to uint8."""
    return numpy.clip(x.astype(numpy.float64) * alpha + beta, 0, 255).astype(numpy.uint8)


def _rgb_to_hsv(rgb: numpy.ndarray) -> numpy.ndarray:
    """OpenCV's 8-bit RGB to HSV of a ``(3, H, W)`` uint8 image: H in ``[0, 180)`` (degrees
    halved), S and V in ``[0, 255]``, rounded."""
    r, g, b = rgb.astype(numpy.int32)
    v = rgb.max(axis=0).astype(numpy.int32)
    diff = v - rgb.min(axis=0)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        s = numpy.where(v > 0, numpy.round(diff * 255 / v), 0)
        h = numpy.where(v == r, (g - b) * 30 / diff,
                        numpy.where(v == g, 60 + (b - r) * 30 / diff, 120 + (r - g) * 30 / diff))
    h = numpy.where(diff > 0, numpy.round(h), 0)
    h = numpy.where(h < 0, h + 180, h)
    return numpy.stack((h, s, v)).astype(numpy.uint8)


def _hsv_to_rgb(hsv: numpy.ndarray) -> numpy.ndarray:
    """OpenCV's 8-bit HSV to RGB (the inverse of :func:`_rgb_to_hsv`), rounded."""
    h = hsv[0].astype(numpy.float64) / 30
    s = hsv[1] / 255.0
    v = hsv[2] / 255.0
    sector = numpy.floor(h)
    f = h - sector
    sector = sector.astype(numpy.int64) % 6
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    choices = ((v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q))
    rgb = [numpy.choose(sector, [c[i] for c in choices]) for i in range(3)]
    return numpy.clip(numpy.round(numpy.stack(rgb) * 255), 0, 255).astype(numpy.uint8)


def random_distort(img: numpy.ndarray, brightness_delta: float = 32,
                   contrast_low: float = 0.5, contrast_high: float = 1.5,
                   saturation_low: float = 0.5, saturation_high: float = 1.5,
                   hue_delta: int = 18, *,
                   rng: numpy.random.Generator | None = None) -> numpy.ndarray:
    """Distorts the colours of an image as SSD's recipe does [#]_ (ChainerCV's
    ``random_distort``).

    The image is taken as uint8 (truncated). Each step happens with probability 1/2: the
    brightness shifts by a value uniform in ``[-brightness_delta, brightness_delta]``; then,
    in one of two orders chosen with probability 1/2 (contrast first, or last), the contrast
    scales by a factor uniform in ``[contrast_low, contrast_high]``, the saturation by one in
    ``[saturation_low, saturation_high]`` and the hue turns by an integer uniform in
    ``[-hue_delta, hue_delta]`` (in OpenCV's halved degrees, modulo 180). Values are clipped
    to 0-255 and truncated after each step; saturation and hue go through OpenCV's 8-bit HSV,
    computed here with NumPy.

    .. [#] Wei Liu, Dragomir Anguelov, Dumitru Erhan, Christian Szegedy, Scott Reed,
       Cheng-Yang Fu, Alexander C. Berg. SSD: Single Shot MultiBox Detector. ECCV 2016.

    Args:
        img (~numpy.ndarray): An RGB image of shape :math:`(3, H, W)`, values 0-255.
        brightness_delta (float): The largest brightness shift.
        contrast_low, contrast_high (float): The range of the contrast factor.
        saturation_low, saturation_high (float): The range of the saturation factor.
        hue_delta (int): The largest hue turn.
        rng (numpy.random.Generator): The source of the draws. If :obj:`None` (default),
            Python's global :mod:`random` state is used, drawing as ChainerCV did.

    Returns:
        ~numpy.ndarray: float32 :math:`(3, H, W)`, integer values in 0-255.
    """
    fname = 'random_distort'
    C, _, _ = check_image(fname, img, 'fiu')
    check_rng(fname, rng)
    if C != 3:
        raise ValueError(f'{fname}: img must be an RGB image (3, H, W), but got shape '
                         f'{img.shape}')

    def happens() -> bool:
        return _random.randint(rng, 0, 1) == 1

    def contrast(x):
        return _convert(x, alpha=_random.uniform(rng, contrast_low, contrast_high)) \
            if happens() else x

    def saturation(x):
        if not happens():
            return x
        hsv = _rgb_to_hsv(x)
        hsv[1] = _convert(hsv[1], alpha=_random.uniform(rng, saturation_low, saturation_high))
        return _hsv_to_rgb(hsv)

    def hue(x):
        if not happens():
            return x
        hsv = _rgb_to_hsv(x)
        turn = _random.randint(rng, -hue_delta, hue_delta)
        hsv[0] = (hsv[0].astype(numpy.int64) + turn) % 180
        return _hsv_to_rgb(hsv)

    x = img.astype(numpy.uint8)
    if happens():
        x = _convert(x, beta=_random.uniform(rng, -brightness_delta, brightness_delta))
    if happens():
        x = hue(saturation(contrast(x)))
    else:
        x = contrast(hue(saturation(x)))
    return x.astype(numpy.float32)

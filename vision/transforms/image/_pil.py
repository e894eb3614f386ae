"""Channel-wise resampling with Pillow, shared by :func:`resize` and :func:`rotate`.

Every channel becomes a 32-bit float (mode ``'F'``) Pillow image, as in ChainerCV's Pillow
backend, so any number of channels and any real dtype is handled; the result is cast back to
the input dtype (integers rounded and clipped to their range, booleans thresholded at 0.5).
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import numpy
from PIL import Image

# Names accepted for ``interpolation`` besides Pillow's constants. 'area' averages the input
# pixels each output pixel covers (OpenCV's INTER_AREA when shrinking): Pillow's BOX filter.
_NAMED_FILTERS = {
    'nearest': Image.Resampling.NEAREST,
    'bilinear': Image.Resampling.BILINEAR,
    'linear': Image.Resampling.BILINEAR,
    'bicubic': Image.Resampling.BICUBIC,
    'cubic': Image.Resampling.BICUBIC,
    'lanczos': Image.Resampling.LANCZOS,
    'area': Image.Resampling.BOX,
    'box': Image.Resampling.BOX,
    'hamming': Image.Resampling.HAMMING,
}

ALL_FILTERS = frozenset((Image.Resampling.NEAREST, Image.Resampling.BILINEAR,
                         Image.Resampling.BICUBIC, Image.Resampling.LANCZOS,
                         Image.Resampling.BOX, Image.Resampling.HAMMING))
ROTATE_FILTERS = frozenset((Image.Resampling.NEAREST, Image.Resampling.BILINEAR,
                            Image.Resampling.BICUBIC))


def resampling_filter(fname: str, interpolation, allowed: Collection) -> Image.Resampling:
    """Returns the Pillow filter for ``interpolation``: a Pillow constant such as
    ``PIL.Image.BILINEAR`` or one of the names of ``_NAMED_FILTERS`` (any case)."""
    if isinstance(interpolation, str):
        resample = _NAMED_FILTERS.get(interpolation.lower())
    elif isinstance(interpolation, (int, numpy.integer)) and not isinstance(interpolation, bool):
        resample = next((f for f in Image.Resampling if f == interpolation), None)
    else:
        resample = None
    if resample is None or resample not in allowed:
        names = sorted(name for name, f in _NAMED_FILTERS.items() if f in allowed)
        constants = ', '.join(f'PIL.Image.{f.name}' for f in sorted(allowed))
        raise ValueError(f'{fname}: interpolation must be one of {constants} or a name in '
                         f'{names}, but got {interpolation!r}')
    return resample


def _cast_back(out: numpy.ndarray, dtype: numpy.dtype) -> numpy.ndarray:
    if dtype.kind == 'b':
        return out >= 0.5
    if dtype.kind in 'iu':
        info = numpy.iinfo(dtype)
        return numpy.clip(numpy.rint(out), info.min, info.max).astype(dtype)
    return out.astype(dtype, copy=False)


def map_channels(img: numpy.ndarray,
                 operation: Callable[[Image.Image, float], Image.Image],
                 fill: numpy.ndarray | None = None) -> numpy.ndarray:
    """Applies ``operation(channel_image, channel_fill)`` to each channel of ``img`` (C, H, W)
    as a float32 Pillow image and stacks the results in the dtype of ``img``. ``fill`` holds
    one value per channel, or one for all."""
    fills = numpy.zeros(len(img)) if fill is None else numpy.broadcast_to(
        numpy.asarray(fill, dtype=numpy.float64).ravel(), (len(img),))
    channels = []
    for ch, f in zip(img, fills):
        pil_ch = Image.fromarray(numpy.ascontiguousarray(ch, dtype=numpy.float32))
        channels.append(numpy.asarray(operation(pil_ch, float(f))))
    return _cast_back(numpy.stack(channels), img.dtype)

"""Spatial cropping of images, centred by default (ChainerCV's ``center_crop``, differentiable).

Chainer has no crop function; this follows ChainerCV's ``transforms.center_crop`` for the
centre and takes an explicit offset for any other window.
"""

from __future__ import annotations

from framework.functions._inputs import array_input, is_int
from framework.functions.array.get_item import get_item
from framework.utils import type_check
from framework.variable import Variable


def _pair(fname: str, name: str, value) -> tuple[int, int]:
    if (not isinstance(value, (tuple, list)) or len(value) != 2
            or not all(is_int(v) for v in value)):
        raise TypeError(f'{fname}: {name} must be a pair of ints (height, width), '
                        f'but got {value!r}')
    return int(value[0]), int(value[1])


def crop(x, size, offset=None) -> Variable:
    """Crops the last two (spatial) axes of ``x`` to a window of ``size``.

    Args:
        x (Variable or array): images of shape ``(..., H, W)``, e.g. ``(C, H, W)`` or
            ``(N, C, H, W)``.
        size (tuple of int): ``(H_O, W_O)``, at most ``(H, W)``.
        offset (tuple of int or None): ``(y_offset, x_offset)``, the top-left corner of the
            window; None centres the window as ChainerCV's ``center_crop`` does
            (``y_offset = int(round((H - H_O) / 2))``, likewise ``x_offset``).

    Returns:
        Variable: ``x[..., y_offset:y_offset + H_O, x_offset:x_offset + W_O]``, of shape
        ``(..., H_O, W_O)``. The gradient goes to the cropped window of ``x`` (zero outside).
    """
    fname = 'crop'
    x_array = array_input(fname, 'x', x)
    type_check.expect_ndim(fname, 'x', x_array, min_ndim=2)
    h, w = x_array.shape[-2:]
    out_h, out_w = _pair(fname, 'size', size)
    if not (0 <= out_h <= h and 0 <= out_w <= w):
        raise ValueError(f'{fname}: size {(out_h, out_w)} must lie within the spatial shape '
                         f'{(h, w)} of x (shape {x_array.shape})')
    if offset is None:
        top, left = int(round((h - out_h) / 2.)), int(round((w - out_w) / 2.))
    else:
        top, left = _pair(fname, 'offset', offset)
        if not (0 <= top <= h - out_h and 0 <= left <= w - out_w):
            raise ValueError(f'{fname}: offset {(top, left)} puts the window of size '
                             f'{(out_h, out_w)} outside x of spatial shape {(h, w)}; each '
                             f'offset must be in [0, {h - out_h}] and [0, {w - out_w}]')
    return get_item(x, (Ellipsis, slice(top, top + out_h), slice(left, left + out_w)))

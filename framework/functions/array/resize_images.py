"""Resizing images by bilinear or nearest-neighbour interpolation, as Chainer does."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._dtypes import compute_dtype
from framework.functions._inputs import float_input, positive_int
from framework.utils import type_check
from framework.variable import Variable

_MODES = ('bilinear', 'nearest')


def _interpolation_matrix(xp, out_size: int, in_size: int, mode: str, align_corners: bool,
                          dtype):
    """The ``(out_size, in_size)`` matrix that interpolates one axis, with Chainer's sampling.

    Output position ``o`` reads input position ``v[o]``: with ``align_corners`` the corners of
    the axes meet (``v = linspace(0, in_size - 1, out_size)``); otherwise the pixel centres
    are scaled and clamped at 0, as OpenCV does. ``'nearest'`` reads ``floor(o * in / out)``.
    """
    positions = xp.arange(out_size, dtype='d')
    scale = in_size / out_size
    if mode == 'nearest':
        position = xp.minimum(xp.floor(positions * scale), in_size - 1)
    elif align_corners:
        position = xp.linspace(0, in_size - 1, num=out_size, dtype='d')
    else:
        position = xp.maximum((positions + 0.5) * scale - 0.5, 0)
    weight, lower = xp.modf(position)
    lower = lower.astype('i8')
    upper = xp.minimum(lower + 1, in_size - 1)
    weight = weight.astype(dtype)
    matrix = xp.zeros((out_size, in_size), dtype)
    matrix[xp.arange(out_size), lower] = 1 - weight
    matrix[xp.arange(out_size), upper] += weight
    return matrix


class Resample(FunctionNode):
    """``x -> rows @ x @ cols.T`` over the last two axes, for interpolation matrices.

    The map is linear; its gradient is the same map with the transposed matrices.
    """

    def __init__(self, rows, cols):
        self.rows = rows
        self.cols = cols

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        rows, cols = self.rows, self.cols
        xc = x.astype(compute_dtype(x.dtype), copy=False)
        (out_h, h), (out_w, w) = rows.shape, cols.shape
        # The two orders cost differently; take the cheaper one.
        if out_h * w * (h + out_w) <= h * out_w * (w + out_h):
            y = xp.matmul(xp.matmul(rows.astype(xc.dtype, copy=False), xc),
                          cols.T.astype(xc.dtype, copy=False))
        else:
            y = xp.matmul(rows.astype(xc.dtype, copy=False),
                          xp.matmul(xc, cols.T.astype(xc.dtype, copy=False)))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return Resample(self.rows.T, self.cols.T).apply(grad_outputs)


def resize_images(x, output_shape, *, mode: str = 'bilinear',
                  align_corners: bool = True) -> Variable:
    """Resizes images by interpolation.

    Args:
        x (Variable or array): a float array of shape ``(N, C, H, W)``.
        output_shape (tuple of int): ``(H_O, W_O)``, height first (the reverse of OpenCV).
        mode (str): ``'bilinear'`` or ``'nearest'``. Nearest picks input pixel
            ``floor(o * H / H_O)`` for output row ``o`` (likewise for columns).
        align_corners (bool): in bilinear mode, map the corner pixels of the input onto those
            of the output (``True``, Chainer's default) or scale the pixel centres and clamp
            the positions at the border (``False``, OpenCV's behaviour). Nearest ignores it.

    Returns:
        Variable: of shape ``(N, C, H_O, W_O)`` and ``x``'s dtype. Float16 is computed in
        float32. The gradient (and its gradient) is the transposed interpolation.

    The interpolation runs as two matrix products (one per axis), so a non-finite input
    value reaches every output of its row or column (as ``0 * inf``), not only its neighbours.
    """
    fname = 'resize_images'
    x_array = float_input(fname, 'x', x)
    type_check.expect_ndim(fname, 'x', x_array, ndim=4)
    if not isinstance(output_shape, (tuple, list)) or len(output_shape) != 2:
        raise TypeError(f'{fname}: output_shape must be a pair (H_O, W_O) of ints, '
                        f'but got {output_shape!r}')
    out_h, out_w = (positive_int(fname, 'output_shape', s) for s in output_shape)
    if mode not in _MODES:
        raise ValueError(f"{fname}: mode must be 'bilinear' or 'nearest', but got {mode!r}")
    if not isinstance(align_corners, bool):
        raise TypeError(f'{fname}: align_corners must be a bool, '
                        f'but got {type(align_corners).__name__}')
    _, _, h, w = x_array.shape
    if h == 0 or w == 0:
        raise ValueError(f'{fname}: x must have non-empty images, but got shape '
                         f'{x_array.shape}')
    xp = backend.get_array_module(x_array)
    dtype = compute_dtype(x_array.dtype)
    rows = _interpolation_matrix(xp, out_h, h, mode, align_corners, dtype)
    cols = _interpolation_matrix(xp, out_w, w, mode, align_corners, dtype)
    return Resample(rows, cols).apply((x,))[0]

"""Two-dimensional convolution."""

from __future__ import annotations

from framework.functions.connection.convolution_nd import apply_convolution
from framework.variable import Variable


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, *, dilate=1,
                   groups=1) -> Variable:
    """Two-dimensional convolution (cross-correlation) of images with filters.

    ``y[n, o, i, j] = b[o] + sum over the channels c of o's group and the kernel offsets
    (p, q) of W[o, c, p, q] * x_padded[n, c, i * sy + p * dy, j * sx + q * dx]``. The backward
    pass is itself differentiable.

    Args:
        x (Variable or array): the images, a float array of shape ``(N, C, H, W)``.
        W (Variable or array): the filters, a float array of shape
            ``(O, C // groups, kh, kw)``; its dtype may differ from x's.
        b (None, Variable or array): the bias, of shape ``(O,)`` and x's dtype; None for none.
        stride (int or pair of int): ``(sy, sx)``, the step between windows.
        pad (int or pair of int): ``(ph, pw)``, the zero padding on both sides.
        cover_all (bool): add windows at the end (over extra zero padding) so that every pixel
            is covered when the stride skips over the last ones.
        dilate (int or pair of int): ``(dy, dx)``, the spacing between the kernel's taps.
        groups (int): split the channels into this many groups convolved separately; it must
            divide ``C`` and ``O``.

    Returns:
        Variable: of shape ``(N, O, h_O, w_O)`` and x's dtype, where
        ``h_O = (H + 2 * ph - (kh - 1) * dy - 1) // sy + 1`` (with ``sy - 1`` added to the
        numerator when ``cover_all``), and likewise ``w_O``.
    """
    return apply_convolution('convolution_2d', 2, x, W, b, stride, pad, cover_all, dilate,
                             groups, True)

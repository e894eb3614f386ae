"""Two-dimensional dilated convolution."""

from __future__ import annotations

from framework.functions.connection.convolution_nd import apply_convolution
from framework.variable import Variable


def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1,
                           cover_all=False) -> Variable:
    """Two-dimensional convolution whose kernel taps are ``dilate`` pixels apart.

    The same as :func:`convolution_2d` with ``dilate`` (and ``groups=1``), with Chainer's
    argument order. Unlike Chainer's, its backward pass is differentiable.

    Args:
        x (Variable or array): the images, a float array of shape ``(N, C, H, W)``.
        W (Variable or array): the filters, a float array of shape ``(O, C, kh, kw)``.
        b (None, Variable or array): the bias, of shape ``(O,)`` and x's dtype; None for none.
        stride (int or pair of int): the step between windows.
        pad (int or pair of int): the zero padding on both sides.
        dilate (int or pair of int): the spacing between the kernel's taps.
        cover_all (bool): as in :func:`convolution_2d`.

    Returns:
        Variable: of shape ``(N, O, h_O, w_O)`` and x's dtype, with
        ``h_O = (H + 2 * ph - (kh - 1) * dy - 1) // sy + 1`` and likewise ``w_O``.
    """
    return apply_convolution('dilated_convolution_2d', 2, x, W, b, stride, pad, cover_all,
                             dilate, 1, True)

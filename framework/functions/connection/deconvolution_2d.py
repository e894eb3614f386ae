"""Two-dimensional transposed convolution ("deconvolution")."""

from __future__ import annotations

from framework.functions.connection.deconvolution_nd import apply_deconvolution
from framework.variable import Variable


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, *, dilate=1,
                     groups=1) -> Variable:
    """Two-dimensional transposed convolution: the gradient of :func:`convolution_2d` with
    respect to its input, applied to ``x``.

    Every pixel ``x[n, c, i, j]`` adds ``x[n, c, i, j] * W[c, o, p, q]`` to the output at
    ``(i * sy + p * dy - ph, j * sx + q * dx - pw)`` for each output channel ``o`` of c's
    group and kernel offset ``(p, q)``. The backward pass is itself differentiable.

    Args:
        x (Variable or array): the input, a float array of shape ``(N, C, H, W)``.
        W (Variable or array): the filters, a float array of shape
            ``(C, O // groups, kh, kw)``; its dtype may differ from x's.
        b (None, Variable or array): the bias, of shape ``(O,)`` and x's dtype; None for none.
        stride (int or pair of int): ``(sy, sx)``.
        pad (int or pair of int): ``(ph, pw)``, cropped from both sides of the output.
        outsize (None or pair of int): ``(h_O, w_O)``, the output size. None (or a None entry)
            means ``h_O = sy * (H - 1) + (kh - 1) * dy + 1 - 2 * ph`` (and likewise ``w_O``); a
            given size must be one whose convolution (with or without cover_all) has x's size.
        dilate (int or pair of int): ``(dy, dx)``, the spacing between the kernel's taps.
        groups (int): split the channels into this many groups; it must divide ``C``.

    Returns:
        Variable: of shape ``(N, O, h_O, w_O)`` and x's dtype.
    """
    return apply_deconvolution('deconvolution_2d', 2, x, W, b, stride, pad, outsize, dilate,
                               groups, True)

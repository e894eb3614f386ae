"""N-dimensional transposed convolution ("deconvolution")."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions.connection import _kernels
from framework.functions.connection._arguments import deconvolution_arguments
from framework.functions.connection.convolution_nd import (
    ConvolutionND,
    ConvolutionNDGradW,
    bias_grad,
)
from framework.utils.conv import get_conv_outsize
from framework.variable import Variable


class DeconvolutionND(FunctionNode):
    """Transposed convolution of ``x (N, C, *spatial)`` with ``W (C, O // groups, *ksize)``
    plus an optional bias ``b (O,)``, to the spatial size ``outsize``; the output has x's
    dtype."""

    def __init__(self, stride, pad, outsize, dilate, groups):
        self.stride = stride
        self.pad = pad
        self.outsize = tuple(outsize)
        self.dilate = dilate
        self.groups = groups

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        y = _kernels.deconvolve(x, W, self.stride, self.pad, self.outsize, self.dilate,
                                self.groups)
        if len(inputs) == 3:
            y += inputs[2].reshape((1, -1) + (1,) * (y.ndim - 2))
        return y,

    def _cover_all(self, x_size, ksize) -> tuple[bool, ...]:
        """Along which axes the convolution that this one transposes needs cover_all to map
        the output size back to the input size.

        Chainer sets cover_all on all axes when one needs it, which fails when another axis
        does not; per axis, every valid ``outsize`` works.
        """
        return tuple(n != get_conv_outsize(o, k, s, p, d=d) for n, o, k, s, p, d in zip(
            x_size, self.outsize, ksize, self.stride, self.pad, self.dilate))

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        cover_all = self._cover_all(x.shape[2:], W.shape[2:])
        ret = []
        if 0 in indexes:
            ret.append(ConvolutionND(self.stride, self.pad, cover_all, self.dilate,
                                     self.groups).apply((gy, W))[0])
        if 1 in indexes:
            ret.append(ConvolutionNDGradW(W.shape[2:], self.stride, self.pad, cover_all,
                                          self.dilate, self.groups, W.dtype).apply((gy, x))[0])
        if 2 in indexes:
            ret.append(bias_grad(gy, self.inputs[2].dtype))
        return tuple(ret)


def apply_deconvolution(fname: str, n_spatial: int | None, x, W, b, stride, pad, outsize,
                        dilate, groups, bias_same_dtype: bool) -> Variable:
    """Checks the arguments of a transposed convolution (errors name ``fname``) and applies
    it."""
    geometry, outsize = deconvolution_arguments(fname, x, W, b, n_spatial, stride, pad, outsize,
                                                dilate, groups, bias_same_dtype)
    node = DeconvolutionND(geometry.stride, geometry.pad, outsize, geometry.dilate,
                           geometry.groups)
    return node.apply((x, W) if b is None else (x, W, b))[0]


def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1) -> Variable:
    """N-dimensional transposed convolution: the gradient of :func:`convolution_nd` with
    respect to its input, applied to ``x``.

    Every input element ``x[n, c, *i]`` adds ``x[n, c, *i] * W[c, o, *k]`` to the output at
    ``i * stride + k * dilate - pad`` for each output channel ``o`` of c's group (offset by the
    group) and kernel offset ``k``.

    Args:
        x (Variable or array): the input, a float array of shape ``(N, C, *spatial)``.
        W (Variable or array): the filters, a float array of shape
            ``(C, O // groups, *ksize)``; its dtype may differ from x's.
        b (None, Variable or array): the bias, a float array of shape ``(O,)`` (any float
            dtype; its gradient is cast to it); None for none.
        stride (int or tuple of int): the step between windows, per spatial axis.
        pad (int or tuple of int): the padding cropped from both sides, per spatial axis.
        outsize (None or tuple of int): the spatial size of the output. An entry that is None
            (or None for all) is ``stride * (size - 1) + (k - 1) * dilate + 1 - 2 * pad``; a
            given size must be one whose convolution (with or without cover_all) has x's size.
        dilate (int or tuple of int): the spacing between the kernel's taps, per spatial axis.
        groups (int): split the channels into this many groups; it must divide ``C``.

    Returns:
        Variable: of shape ``(N, O, *outsize)`` and x's dtype.
    """
    return apply_deconvolution('deconvolution_nd', None, x, W, b, stride, pad, outsize, dilate,
                               groups, False)


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1) -> Variable:
    """1-dimensional transposed convolution: :func:`deconvolution_nd` for ``x`` of shape
    ``(N, C, L)``."""
    return apply_deconvolution('deconvolution_1d', 1, x, W, b, stride, pad, outsize, dilate,
                               groups, False)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1,
                     groups=1) -> Variable:
    """3-dimensional transposed convolution: :func:`deconvolution_nd` for ``x`` of shape
    ``(N, C, D, H, W)``."""
    return apply_deconvolution('deconvolution_3d', 3, x, W, b, stride, pad, outsize, dilate,
                               groups, False)

"""N-dimensional convolution and the gradient of its weight."""

from __future__ import annotations

from framework.function_node import FunctionNode
from framework.functions.array.cast import cast
from framework.functions.connection import _kernels
from framework.functions.connection._arguments import convolution_arguments
from framework.functions.math.sum import sum as sum_
from framework.variable import Variable


def bias_grad(gy: Variable, b_dtype) -> Variable:
    """The gradient of a bias added to every position of the ``(N, C, *spatial)`` output."""
    gb = sum_(gy, axis=(0,) + tuple(range(2, gy.ndim)))
    return gb if gb.dtype == b_dtype else cast(gb, b_dtype)


class ConvolutionND(FunctionNode):
    """Convolution of ``x (N, C, *spatial)`` with ``W (O, C // groups, *ksize)`` plus an
    optional bias ``b (O,)``; the output has x's dtype. ``stride``, ``pad``, ``cover_all`` and
    ``dilate`` have one entry per spatial axis."""

    def __init__(self, stride, pad, cover_all, dilate, groups):
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate
        self.groups = groups

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        y = _kernels.convolve(x, W, self.stride, self.pad, self.cover_all, self.dilate,
                              self.groups)
        if len(inputs) == 3:
            y += inputs[2].reshape((1, -1) + (1,) * (y.ndim - 2))
        return y,

    def backward(self, indexes, grad_outputs):
        from framework.functions.connection.deconvolution_nd import DeconvolutionND
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(DeconvolutionND(self.stride, self.pad, x.shape[2:], self.dilate,
                                       self.groups).apply((gy, W))[0])
        if 1 in indexes:
            ret.append(ConvolutionNDGradW(W.shape[2:], self.stride, self.pad, self.cover_all,
                                          self.dilate, self.groups, W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            ret.append(bias_grad(gy, self.inputs[2].dtype))
        return tuple(ret)


class ConvolutionNDGradW(FunctionNode):
    """The gradient of a convolution's weight from its input ``x`` and output gradient
    ``gy``, of dtype ``w_dtype``."""

    def __init__(self, ksize, stride, pad, cover_all, dilate, groups, w_dtype):
        self.ksize = tuple(ksize)
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate
        self.groups = groups
        self.w_dtype = w_dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return _kernels.convolve_grad_weight(x, gy, self.ksize, self.stride, self.pad,
                                             self.cover_all, self.dilate, self.groups,
                                             self.w_dtype),

    def backward(self, indexes, grad_outputs):
        from framework.functions.connection.deconvolution_nd import DeconvolutionND
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(DeconvolutionND(self.stride, self.pad, x.shape[2:], self.dilate,
                                       self.groups).apply((gy, ggW))[0])
        if 1 in indexes:
            ret.append(ConvolutionND(self.stride, self.pad, self.cover_all, self.dilate,
                                     self.groups).apply((x, ggW))[0])
        return tuple(ret)


def apply_convolution(fname: str, n_spatial: int | None, x, W, b, stride, pad, cover_all,
                      dilate, groups, bias_same_dtype: bool) -> Variable:
    """Checks the arguments of a convolution (errors name ``fname``) and applies it."""
    geometry = convolution_arguments(fname, x, W, b, n_spatial, stride, pad, cover_all, dilate,
                                     groups, bias_same_dtype)
    node = ConvolutionND(geometry.stride, geometry.pad, (bool(cover_all),) * len(geometry.pad),
                         geometry.dilate, geometry.groups)
    return node.apply((x, W) if b is None else (x, W, b))[0]


def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1,
                   groups=1) -> Variable:
    """N-dimensional convolution (cross-correlation) of ``x`` with the filters ``W``.

    ``y[n, o, *i] = b[o] + sum over the channels c of o's group and the kernel offsets k of
    W[o, c, *k] * x_padded[n, c, *(i * stride + k * dilate)]``.

    Args:
        x (Variable or array): the input, a float array of shape ``(N, C, *spatial)``.
        W (Variable or array): the filters, a float array of shape
            ``(O, C // groups, *ksize)``; its dtype may differ from x's.
        b (None, Variable or array): the bias, a float array of shape ``(O,)`` (any float
            dtype; its gradient is cast to it); None for none.
        stride (int or tuple of int): the step between windows, per spatial axis.
        pad (int or tuple of int): the zero padding on both sides, per spatial axis.
        cover_all (bool): add windows at the end (over extra zero padding) so that every input
            element is covered when the stride skips over the last ones.
        dilate (int or tuple of int): the spacing between the kernel's taps, per spatial axis.
        groups (int): split the channels into this many groups convolved separately; it must
            divide ``C`` and ``O``.

    Returns:
        Variable: of shape ``(N, O, *out)`` and x's dtype, where along each spatial axis
        ``out = (size + 2 * pad - (k - 1) * dilate - 1) // stride + 1``, with ``stride - 1``
        added to the numerator when ``cover_all``.
    """
    return apply_convolution('convolution_nd', None, x, W, b, stride, pad, cover_all, dilate,
                             groups, False)


def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1,
                   groups=1) -> Variable:
    """1-dimensional convolution: :func:`convolution_nd` for ``x`` of shape ``(N, C, L)``."""
    return apply_convolution('convolution_1d', 1, x, W, b, stride, pad, cover_all, dilate,
                             groups, False)


def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1,
                   groups=1) -> Variable:
    """3-dimensional convolution: :func:`convolution_nd` for ``x`` of shape
    ``(N, C, D, H, W)``."""
    return apply_convolution('convolution_3d', 3, x, W, b, stride, pad, cover_all, dilate,
                             groups, False)

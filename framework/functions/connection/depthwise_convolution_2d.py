"""Two-dimensional depthwise convolution."""

from __future__ import annotations

from framework.functions.array.reshape import reshape
from framework.functions.array.transpose import transpose
from framework.functions.connection._arguments import (
    Geometry,
    check_bias,
    check_out_size,
    conv_inputs,
)
from framework.functions.connection.convolution_nd import ConvolutionND
from framework.variable import Variable


def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0) -> Variable:
    """Two-dimensional depthwise convolution: each input channel convolved with its own
    ``c_M`` filters.

    Output channel ``c * c_M + m`` is the convolution of input channel ``c`` with the filter
    ``W[m, c]``: a grouped :func:`convolution_2d` with one group per input channel, which it
    is computed as (so, unlike Chainer's, its backward pass is differentiable).

    Args:
        x (Variable or array): the images, a float array of shape ``(N, c_I, H, W)``.
        W (Variable or array): the filters, a float array of shape ``(c_M, c_I, kh, kw)``
            (``c_M`` is the channel multiplier).
        b (None, Variable or array): the bias, of shape ``(c_M * c_I,)`` and x's dtype; None
            for none.
        stride (int or pair of int): the step between windows.
        pad (int or pair of int): the zero padding on both sides.

    Returns:
        Variable: of shape ``(N, c_I * c_M, h_O, w_O)`` and x's dtype, with ``h_O`` and
        ``w_O`` as in :func:`convolution_2d`.
    """
    fname = 'depthwise_convolution_2d'
    x_array, W_array = conv_inputs(fname, x, W, 2)
    multiplier, channels, kh, kw = W_array.shape
    if x_array.shape[1] != channels:
        raise ValueError(f'{fname}: x of shape {x_array.shape} has {x_array.shape[1]} channels, '
                         f'but W of shape {W_array.shape} expects W.shape[1] = {channels}')
    check_bias(fname, b, multiplier * channels, x_array.dtype, True)
    geometry = Geometry(fname, 2, stride, pad, 1, 1)
    check_out_size(fname, x_array.shape, (kh, kw), geometry, False)
    grouped = reshape(transpose(W, (1, 0, 2, 3)), (channels * multiplier, 1, kh, kw))
    node = ConvolutionND(geometry.stride, geometry.pad, (False, False), geometry.dilate,
                         channels)
    return node.apply((x, grouped) if b is None else (x, grouped, b))[0]

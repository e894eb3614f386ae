"""Image patches as channels (im2col) and its adjoint."""

from __future__ import annotations

from framework import backend
from framework.function_node import FunctionNode
from framework.functions._inputs import spatial_input, spatial_tuple
from framework.functions.connection._arguments import Geometry, check_out_size
from framework.utils import conv
from framework.variable import Variable


class Im2Col(FunctionNode):

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.ksize = ksize
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        col = xp.ascontiguousarray(conv.im2col(x, self.ksize, self.stride, self.pad, 0,
                                               self.cover_all, self.dilate))
        n, c, kh, kw, out_h, out_w = col.shape
        return col.reshape(n, c * kh * kw, out_h, out_w),

    def backward(self, indexes, grad_outputs):
        return Im2ColGrad(self.ksize, self.stride, self.pad, self.cover_all, self.dilate,
                          self.inputs[0].shape[1:]).apply(grad_outputs)


class Im2ColGrad(FunctionNode):
    """The adjoint of :class:`Im2Col`: adds the patches back into images of shape
    ``(N, *in_shape)``."""

    def __init__(self, ksize, stride, pad, cover_all, dilate, in_shape):
        self.ksize = ksize
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = dilate
        self.in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        n, _, out_h, out_w = gy.shape
        c, h, w = self.in_shape
        col = gy.reshape((n, c) + self.ksize + (out_h, out_w))
        return conv.col2im(col, self.stride, self.pad, (h, w), self.dilate),

    def backward(self, indexes, grad_outputs):
        return Im2Col(self.ksize, self.stride, self.pad, self.cover_all,
                      self.dilate).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1) -> Variable:
    """Extracts the patches of images into the channel axis.

    Patches of size ``(kh, kw)`` are taken at positions ``(-ph, -pw) + (i * sy, j * sx)`` of
    the zero-padded images, their taps ``(dy, dx)`` apart; patch ``(i, j)`` becomes the
    channels of output pixel ``(i, j)``, ordered ``(c, p, q)`` for input channel ``c`` and tap
    ``(p, q)``.

    Args:
        x (Variable or array): the images, a float array of shape ``(N, C, H, W)``.
        ksize (int or pair of int): ``(kh, kw)``, the patch size.
        stride (int or pair of int): ``(sy, sx)``, the step between patches.
        pad (int or pair of int): ``(ph, pw)``, the zero padding on both sides.
        cover_all (bool): add patches at the end (over extra zero padding) so that every
            pixel is covered when the stride skips over the last ones.
        dilate (int or pair of int): ``(dy, dx)``, the spacing between the taps of a patch.

    Returns:
        Variable: of shape ``(N, C * kh * kw, h_O, w_O)`` and x's dtype, with
        ``h_O = (H + 2 * ph - (kh - 1) * dy - 1) // sy + 1`` (``sy - 1`` added to the numerator
        when ``cover_all``) and likewise ``w_O``.
    """
    fname = 'im2col'
    x_array = spatial_input(fname, x, 2)
    ksize = spatial_tuple(fname, 'ksize', ksize, 2, 1)
    geometry = Geometry(fname, 2, stride, pad, dilate, 1)
    check_out_size(fname, x_array.shape, ksize, geometry, bool(cover_all))
    return Im2Col(ksize, geometry.stride, geometry.pad, bool(cover_all),
                  geometry.dilate).apply((x,))[0]

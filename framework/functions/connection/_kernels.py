"""Array kernels of convolution: one matrix product per group and call.

Arrays are laid out ``(N, C, *spatial)`` and weights ``(O, C // groups, *ksize)``; stride,
pad, dilate and cover_all have one entry per spatial axis. The windows of the input are copied
once into a contiguous column matrix ``(groups, K, N * P)`` (``K`` the window size per group,
``P`` the number of output positions per image), so that a convolution is the product
``W (groups, O // groups, K) @ columns`` over every image at once, and its weight gradient
the product of the output gradient with the transposed columns: however few positions an
image has (the last stages of a network), the products stay large enough for BLAS, and no
per-image results are summed. Pointwise kernels (1x1, no padding) need no windows: a
contiguous input is the matrix of each image already, multiplied without a copy.
Half-precision operands are multiplied in single precision, which BLAS supports.

On a GPU with cuDNN (:mod:`framework.cuda.cudnn`, as ``framework.config.use_cudnn`` allows)
each of the three functions is one cuDNN call instead, where cuDNN takes the geometry.

Column matrices are temporaries, often larger than everything else a convolution touches: they
are workspace lent by the device's memory pool (:func:`framework.resources.request_workspace`),
whose blocks are reused from call to call rather than fresh memory that the system must map
and zero at every call.
"""

from __future__ import annotations

import math

import numpy

from framework import backend, resources
from framework.cuda import cudnn, is_cupy
from framework.cuda.im2col import im2col
from framework.utils import conv

#: The layout of the columns of two-dimensional windows, ``(C, kh, kw, N, oh, ow)``: the
#: ``(groups, K, N, P)`` matrix of :func:`columns` (on a GPU, one kernel writes it).
_CHANNEL_MAJOR_COLUMNS = ('c', 'ky', 'kx', 'n', 'oy', 'ox')


def _workspace(like, shape, dtype):
    """An uninitialised C-contiguous array of ``shape`` and ``dtype`` on the device of
    ``like``, in workspace of the device's memory pool (returned when it dies)."""
    dtype = numpy.dtype(dtype)
    nbytes = math.prod(shape) * dtype.itemsize
    workspace = resources.request_workspace(backend.get_device_from_array(like), nbytes)
    return workspace.view(dtype).reshape(shape)


def _gemm_dtype(*dtypes) -> numpy.dtype:
    dtype = numpy.result_type(*dtypes)
    return numpy.dtype(numpy.float32) if dtype.itemsize < 4 else dtype


def _is_pointwise(in_size, ksize, stride, pad, out_size) -> bool:
    """Whether the windows are single input elements taken every ``stride`` from the start."""
    return (all(k == 1 for k in ksize) and not any(pad)
            and all(o == -(-n // s) for n, s, o in zip(in_size, stride, out_size)))


def _is_matrix(x, stride, dtype) -> bool:
    """Whether the input of a pointwise convolution is its columns already, image by image."""
    return all(s == 1 for s in stride) and x.dtype == dtype and x.flags.c_contiguous


def _is_channel_major(x, stride, dtype) -> bool:
    """Whether the input of a pointwise convolution is laid out channel by channel (as the
    outputs of :func:`convolve` over several images are): its columns are then a view."""
    return (all(s == 1 for s in stride) and x.dtype == dtype
            and x.swapaxes(0, 1).flags.c_contiguous)


def _use_cudnn(xp, arrays, out_shape, cover_all) -> bool:
    """Whether cuDNN computes this convolution: a GPU's arrays, cuDNN allowed and there, and a
    geometry it supports."""
    return (is_cupy(xp) and cudnn.should_use_cudnn()
            and cudnn.supports(arrays, out_shape, cover_all))


def columns(x, ksize, stride, pad, cover_all, dilate, groups, dtype):
    """The windows of ``x`` as one contiguous matrix per group, the batch axis next to the
    output positions, in pooled workspace unless ``x`` itself is that matrix.

    Returns:
        An array of ``dtype`` of shape ``(groups, K, N, P)``, where
        ``K = C // groups * prod(ksize)`` and ``P = prod(out_size)``.
    """
    xp = backend.get_array_module(x)
    n, c = x.shape[:2]
    in_size = x.shape[2:]
    out = conv.get_conv_outsizes(in_size, ksize, stride, pad, cover_all, dilate)
    shape = (groups, c // groups * math.prod(ksize), n, math.prod(out))
    if _is_pointwise(in_size, ksize, stride, pad, out):
        if _is_matrix(x, stride, dtype) and n == 1:
            return x.reshape(shape)
        if _is_channel_major(x, stride, dtype):
            return xp.moveaxis(x, 0, 1).reshape(shape)
        view = x[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in stride)]
    elif is_cupy(xp) and len(ksize) == 2:
        col = _workspace(x, shape, dtype)
        geometry = conv.WindowGeometry.for_input(in_size, ksize, stride, pad, cover_all, dilate)
        im2col(x, geometry, 0, _CHANNEL_MAJOR_COLUMNS, col.reshape((c,) + tuple(ksize) + (n,)
                                                                    + tuple(out)))
        return col
    else:
        view = conv.im2col(x, ksize, stride, pad, 0, cover_all, dilate)
    # (N, groups, C // groups, *ksize, *out), the batch axis moved before ``out``.
    view = xp.moveaxis(view.reshape((n, groups, c // groups) + tuple(ksize) + out), 0,
                       2 + len(ksize))
    col = _workspace(x, shape, dtype)
    xp.copyto(col.reshape(view.shape), view)
    return col


def convolve(x, W, stride, pad, cover_all, dilate, groups):
    """The convolution of ``x (N, C, *spatial)`` with ``W (O, C // groups, *ksize)`` (no
    bias): an array ``(N, O, *out)`` of ``x``'s dtype.

    A pointwise convolution of a contiguous input is one product per image with the input
    itself; otherwise one product per group with the columns of all images, whose result is
    transposed into the ``(N, O, *out)`` layout (a pass over the output, much cheaper than a
    product per image when the images have few output positions)."""
    xp = backend.get_array_module(x)
    n = x.shape[0]
    o = W.shape[0]
    ksize = W.shape[2:]
    dtype = _gemm_dtype(x.dtype, W.dtype)
    out = conv.get_conv_outsizes(x.shape[2:], ksize, stride, pad, cover_all, dilate)
    if _use_cudnn(xp, (x, W), (n, o) + out, cover_all):
        y = cudnn.convolution_forward(x, W, pad, stride, dilate)
        if y is not None:
            return y
    w = W.astype(dtype, copy=False).reshape(groups, o // groups, -1)
    if _is_pointwise(x.shape[2:], ksize, stride, pad, out) and _is_matrix(x, stride, dtype):
        y = xp.matmul(w, x.reshape(n, groups, w.shape[2], math.prod(out)))
    else:
        col = columns(x, ksize, stride, pad, cover_all, dilate, groups, dtype)
        y = xp.matmul(w, col.reshape(groups, col.shape[1], -1))
        y = xp.moveaxis(y.reshape(groups, o // groups, n, math.prod(out)), 2, 0)
    return y.astype(x.dtype, copy=False).reshape((n, o) + out)


def convolve_grad_weight(x, gy, ksize, stride, pad, cover_all, dilate, groups, w_dtype):
    """The gradient ``(O, C // groups, *ksize)`` of a convolution's weight, of ``w_dtype``,
    from its input ``x (N, C, *spatial)`` and output gradient ``gy (N, O, *out)``: per group
    one product of ``gy`` with the transposed columns of ``x``, the batch and the output
    positions together forming the inner dimension (however few positions each image has).

    A pointwise convolution of a contiguous input with at least ``O // groups`` positions per
    image takes the input as it is instead: one product per image, the partial gradients
    (no larger than the input) summed, which spares the copy of the input into columns."""
    xp = backend.get_array_module(x)
    n, o = gy.shape[:2]
    w_shape = (o, x.shape[1] // groups) + tuple(ksize)
    if w_dtype == x.dtype and _use_cudnn(xp, (x, gy), w_shape, cover_all):
        gw = cudnn.convolution_backward_filter(x, gy, w_shape, pad, stride, dilate)
        if gw is not None:
            return gw
    dtype = _gemm_dtype(x.dtype, gy.dtype)
    gy = gy.astype(dtype, copy=False)
    p = math.prod(gy.shape[2:])
    # The gradient is made in an array of its own shape (not a reshaped view), which the
    # backward pass can hand to the optimizer without a copy.
    gw = xp.empty(w_shape, dtype)
    if (n > 1 and p >= o // groups and _is_matrix(x, stride, dtype)
            and _is_pointwise(x.shape[2:], ksize, stride, pad, gy.shape[2:])):
        g = gy.reshape(n, groups, o // groups, p)
        partial = xp.matmul(g, x.reshape(n, groups, -1, p).swapaxes(2, 3))
        xp.sum(partial, axis=0, out=gw.reshape(partial.shape[1:]))
        return gw.astype(w_dtype, copy=False)
    col = columns(x, ksize, stride, pad, cover_all, dilate, groups, dtype)
    groups, k = col.shape[:2]
    g = xp.moveaxis(gy.reshape(n, groups, o // groups, p), 0, 2)
    xp.matmul(g.reshape(groups, o // groups, -1), col.reshape(groups, k, -1).swapaxes(1, 2),
              out=gw.reshape(groups, o // groups, k))
    return gw.astype(w_dtype, copy=False)


def _flipped_transpose(W, groups):
    """The weight of the convolution that a stride-1 transposed convolution with ``W`` is:
    the kernel flipped along every spatial axis, input and output channels swapped per group.
    """
    c, og = W.shape[:2]
    ksize = W.shape[2:]
    flip = (slice(None),) * 3 + (slice(None, None, -1),) * len(ksize)
    return W.reshape((groups, c // groups, og) + ksize).swapaxes(1, 2)[flip].reshape(
        (groups * og, c // groups) + ksize)


def deconvolve(x, W, stride, pad, outsize, dilate, groups):
    """The transposed convolution of ``x`` with ``W`` (no bias), of ``x``'s dtype.

    With stride 1 (and no more padding than the kernel spans), it is the convolution of ``x``
    padded by the rest of the span with the flipped, channel-transposed kernel, whose columns
    cost one copy; otherwise each input element's products with the kernel are computed by
    one matrix product and added into the output window by window (:func:`conv.col2im`).

    Args:
        W: of shape ``(C, O // groups, *ksize)``.
        outsize: the spatial size of the output.
    """
    xp = backend.get_array_module(x)
    n, c = x.shape[:2]
    in_size = x.shape[2:]
    og = W.shape[1]
    ksize = W.shape[2:]
    out_shape = (n, groups * og) + tuple(outsize)
    # cuDNN's transposed convolutions are the adjoints of convolutions without cover_all.
    if (_use_cudnn(xp, (x, W), out_shape, (False,))
            and conv.get_conv_outsizes(outsize, ksize, stride, pad, False, dilate) == in_size):
        y = cudnn.convolution_backward_data(W, x, out_shape, pad, stride, dilate)
        if y is not None:
            return y
    full_pad = tuple((k - 1) * d - p for k, d, p in zip(ksize, dilate, pad))
    if all(s == 1 for s in stride) and min(full_pad) >= 0:
        return convolve(x, _flipped_transpose(W, groups), stride, full_pad,
                        (False,) * len(ksize), dilate, groups)
    dtype = _gemm_dtype(x.dtype, W.dtype)
    xm = xp.moveaxis(x.astype(dtype, copy=False).reshape(n, groups, c // groups,
                                                         math.prod(in_size)), 0, 2)
    w = W.astype(dtype, copy=False).reshape(groups, c // groups, -1).swapaxes(1, 2)
    gcol = _workspace(x, (groups, w.shape[1], n * xm.shape[3]), dtype)
    xp.matmul(w, xm.reshape(groups, c // groups, -1), out=gcol)
    gcol = xp.moveaxis(gcol.astype(x.dtype, copy=False).reshape(
        (groups, og) + tuple(ksize) + (n,) + tuple(in_size)), 2 + len(ksize), 0)
    return conv.col2im(gcol.reshape((n, groups * og) + gcol.shape[3:]), stride, pad, outsize,
                       dilate)

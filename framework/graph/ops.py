"""The operations that an optimized graph runs in place of function nodes.

Convolutions and poolings compute channels-last (``(N, H, W, C)`` arrays): a window of a
channels-last image is a run of contiguous memory per kernel row, so the window copies are
long, and the output of a convolution's matrix product (``(N * H * W, O)``) is the next
layer's input as it is. A convolution carries what follows it in the network when that has
been fused into it: a folded batch normalization (in its weight and bias), a residual addition
and an activation, all applied to its output while it is fresh.
"""

from __future__ import annotations

import math

import numpy

from framework import backend
from framework.cuda import cublas, cudnn, is_cupy
from framework.cuda.conv_epilogue import conv_epilogue
from framework.cuda.im2col import im2col
from framework.functions.connection import _kernels
from framework.graph.graph import NCHW, NHWC, Graph, Op
from framework.graph.memory_plan import block_view
from framework.utils import conv
from framework.utils.conv import WindowGeometry

#: The layout of a channels-last convolution's columns: a row per output position.
_NHWC_COLUMNS = ('n', 'oy', 'ox', 'ky', 'kx', 'c')


def _output(xp, out, shape, dtype):
    return xp.empty(shape, dtype) if out is None else out


def _matmul(xp, a, b, out=None):
    """``a @ b``, into ``out`` when given: on a GPU by :func:`framework.cuda.cublas.matmul`,
    which a CUDA graph can capture (CuPy's cannot be)."""
    if out is None:
        shape = numpy.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
        out = xp.empty(shape, a.dtype)
    if is_cupy(xp):
        cublas.matmul(a, b, out)
    else:
        xp.matmul(a, b, out=out)
    return out


def _apply_activation(xp, y, activation) -> None:
    if activation is None:
        return
    if activation[0] == 'relu':
        xp.maximum(y, 0, out=y)
    else:
        xp.clip(y, 0, activation[1], out=y)


def _describe_activation(activation) -> str:
    if activation is None:
        return ''
    return ' relu' if activation[0] == 'relu' else f' clip(0, {activation[1]})'


def _padded(geometry: WindowGeometry, x, workspace, fill):
    """``x (..., H, W, C)`` padded with ``fill``, in the workspace ``'pad'`` when the windows
    need padding (else ``x`` itself)."""
    if not geometry.needs_padding:
        return x
    axis = x.ndim - 3
    out = block_view(workspace['pad'], geometry.padded_shape(x.shape, axis), x.dtype)
    return geometry.padded(x, fill, axis, out)


def _pad_bytes(geometry: WindowGeometry, n, c, dtype) -> int:
    """The bytes of the workspace that :func:`_padded` needs for an input ``(n, H, W, c)``."""
    if not geometry.needs_padding:
        return 0
    return n * math.prod(geometry.padded_size) * c * numpy.dtype(dtype).itemsize


class Conv2D(Op):
    """``activation(convolution(x, W) + b + residual)``, channels-last.

    Args:
        inputs: ``[x]``, or ``[x, residual]`` once a residual addition is fused.
        W: the filters ``(O, C // groups, kh, kw)``.
        b: the bias ``(O,)``, or None.
        stride, pad, dilate: pairs; groups: int.

    Attributes:
        activation: None, ``('relu',)`` or ``('clip', cap)``.
    """

    def __init__(self, inputs, outputs, W, b, stride, pad, dilate, groups):
        super().__init__(inputs, outputs)
        self.W = W
        self.b = b
        self.stride = tuple(stride)
        self.pad = tuple(pad)
        self.dilate = tuple(dilate)
        self.groups = groups
        self.activation = None
        self._matrix = None
        self._geometry = None
        self._cudnn = None
        self._band_rows = None

    @property
    def residual(self) -> bool:
        return len(self.inputs) == 2

    def input_layouts(self, graph):
        return [NHWC] * len(self.inputs)

    def output_layout(self, graph):
        return NHWC

    def _window_geometry(self, graph: Graph):
        x, y = graph.values[self.inputs[0]], graph.values[self.outputs[0]]
        return WindowGeometry(x.shape[2:], y.shape[2:], self.W.shape[2:], self.stride, self.pad,
                              self.dilate)

    @property
    def _depthwise(self) -> bool:
        return self.W.shape[1] == 1 and self.groups == self.W.shape[0] and self.groups > 1

    def _pointwise(self, geometry: WindowGeometry) -> bool:
        """Whether each window is one input element (1x1, no padding)."""
        return self.W.shape[2:] == (1, 1) and not geometry.needs_padding

    def _uses_cudnn(self, graph) -> bool:
        """Whether cuDNN computes the convolution (decided once, when the graph is planned,
        since the plan holds no columns for it). A single image's convolutions stay on the
        graph's own kernels unless ``use_cudnn`` is ``'always'``: ResNet-50 at batch 1 ran
        in 4.5-5.4 ms on them and 6.8-9.5 ms on cuDNN (H200, single precision), while at
        batch 32 cuDNN was the faster (13.5 against 14.2 ms; 8.4 with TF32)."""
        if self._cudnn is None:
            x, y = graph.values[self.inputs[0]], graph.values[self.outputs[0]]
            level = '>=auto' if x.shape[0] > 1 else '==always'
            self._cudnn = (is_cupy(graph.xp) and cudnn.should_use_cudnn(level)
                           and cudnn.supports([x, self.W], y.shape, (False, False)))
        return self._cudnn

    def workspace(self, graph):
        if self._uses_cudnn(graph):
            return {}
        n, c, _, _ = graph.values[self.inputs[0]].shape
        o, oh, ow = graph.values[self.outputs[0]].shape[1:]
        itemsize = self.W.dtype.itemsize
        geometry = self._window_geometry(graph)
        needs = {'pad': _pad_bytes(geometry, n, c, self.W.dtype)}
        rows = n * oh * ow
        if self._depthwise:
            if is_cupy(graph.xp):
                needs['tap'] = rows * o * itemsize
            return needs
        k = c * math.prod(self.W.shape[2:])
        band_rows = self._column_bands(graph)
        needs['col'] = (band_rows * ow if band_rows else rows) * k * itemsize
        if self.groups > 1:
            needs['gemm'] = rows * o * itemsize
        return needs

    def _column_bands(self, graph) -> int | None:
        """The output rows of an image whose columns one product takes on the CPU
        (:func:`conv.column_band_rows`), or None for the columns of every image at once."""
        n, c, _, _ = graph.values[self.inputs[0]].shape
        oh, ow = graph.values[self.outputs[0]].shape[2:]
        geometry = self._window_geometry(graph)
        if (is_cupy(graph.xp) or self.groups > 1 or self._depthwise
                or (self._pointwise(geometry) and self.stride == (1, 1))):
            return None
        k = c * math.prod(self.W.shape[2:])
        return conv.column_band_rows(n * oh * ow, ow, k, self.W.dtype.itemsize, oh)

    def prepare(self, graph):
        """Lays the weight out for the products (after every fusion has changed it)."""
        self._geometry = self._window_geometry(graph)
        self._band_rows = self._column_bands(graph)
        o, cg, kh, kw = self.W.shape
        xp = _array_module(self.W)
        if self._uses_cudnn(graph):
            # Channels-last filters for channels-last data (a view (O, C, kh, kw) of them).
            self._matrix = xp.ascontiguousarray(self.W.transpose(0, 2, 3, 1)).transpose(
                0, 3, 1, 2)
            return
        if self._depthwise:
            self._matrix = xp.ascontiguousarray(self.W.reshape(o, kh, kw).transpose(1, 2, 0))
            return
        g = self.groups
        w = self.W.reshape(g, o // g, cg, kh, kw).transpose(0, 3, 4, 2, 1)
        self._matrix = xp.ascontiguousarray(w.reshape(g, kh * kw * cg, o // g))

    def run(self, inputs, out, workspace):
        x = inputs[0]
        xp = _array_module(x)
        n, h, w, c = x.shape
        o = self.W.shape[0]
        geometry = self._geometry
        oh, ow = geometry.out_size
        rows = n * oh * ow
        y = _output(xp, out, (n, oh, ow, o), x.dtype)
        y2 = y.reshape(rows, o)
        if self._cudnn:
            self._cudnn_convolution(xp, x.transpose(0, 3, 1, 2), y.transpose(0, 3, 1, 2))
        elif self._depthwise:
            self._depthwise_sum(xp, geometry, x, y, workspace)
        elif self._band_rows:
            self._banded_product(xp, geometry, x, y, workspace)
        else:
            col = self._columns(xp, geometry, x, workspace)
            g = self.groups
            if g == 1:
                _matmul(xp, col.reshape(rows, -1), self._matrix[0], y2)
            else:
                product = block_view(workspace['gemm'], (g, rows, o // g), x.dtype)
                _matmul(xp, col.reshape(g, rows, -1), self._matrix, product)
                xp.copyto(y2.reshape(rows, g, o // g), product.transpose(1, 0, 2))
        residual = inputs[1] if self.residual else None
        if is_cupy(xp):
            conv_epilogue(y, self.b, residual, self.activation)
            return y
        if self.b is not None:
            xp.add(y2, self.b, out=y2)
        if residual is not None:
            xp.add(y, residual, out=y)
        _apply_activation(xp, y, self.activation)
        return y

    def _cudnn_convolution(self, xp, x, y):
        """``y = convolution(x, W)`` by cuDNN, both ``(N, C, H, W)`` views of channels-last
        arrays; by the array kernels where cuDNN offers no plan for it."""
        if cudnn.convolution_forward(x, self._matrix, self.pad, self.stride, self.dilate,
                                     out=y) is None:
            xp.copyto(y, _kernels.convolve(x, self.W, self.stride, self.pad, (False, False),
                                           self.dilate, self.groups))

    def _banded_product(self, xp, geometry, x, y, workspace):
        """``y = columns(x) @ W`` a band of ``_band_rows`` output rows of an image at a time
        (NumPy, one group): each band's columns are multiplied while they are in the cache,
        and the workspace holds one band."""
        if self._pointwise(geometry):
            windows = geometry.at_offset(x, (0, 0), 1)[..., None, None, :]
        else:
            windows = geometry.windows(_padded(geometry, x, workspace, 0), 1)
        n, oh, ow, o = y.shape
        for i in range(n):
            for top in range(0, oh, self._band_rows):
                band = windows[i, top:top + self._band_rows]
                col = block_view(workspace['col'], band.shape, x.dtype)
                xp.copyto(col, band)
                _matmul(xp, col.reshape(band.shape[0] * ow, -1), self._matrix[0],
                        y[i, top:top + band.shape[0]].reshape(-1, o))

    def _columns(self, xp, geometry, x, workspace):
        """The windows of ``x`` as rows, ``(N * oh * ow, kh * kw * C)`` (``x`` itself for a
        pointwise convolution without stride), or group by group,
        ``(groups, N * oh * ow, kh * kw * C // groups)``.

        The input of a grouped convolution is padded group by group, ``(groups, N, H, W,
        C // groups)``, so that the windows of a group are runs of ``kw * C // groups``
        elements rather than of ``C // groups``."""
        n, h, w, c = x.shape
        g = self.groups
        if g > 1:
            x = x.reshape(n, h, w, g, c // g).transpose(3, 0, 1, 2, 4)
        elif self._pointwise(geometry) and self.stride == (1, 1) and x.flags.c_contiguous:
            return x
        elif is_cupy(xp):
            col = block_view(workspace['col'], (n,) + geometry.out_size + geometry.ksize + (c,),
                             x.dtype)
            im2col(x.transpose(0, 3, 1, 2), geometry, 0, _NHWC_COLUMNS, col)
            return col
        axis = x.ndim - 3
        if self._pointwise(geometry):
            windows = geometry.at_offset(x, (0, 0), axis)[..., None, None, :]
        else:
            windows = geometry.windows(_padded(geometry, x, workspace, 0), axis)
        col = block_view(workspace['col'], windows.shape, x.dtype)
        xp.copyto(col, windows)
        return col

    def _depthwise_sum(self, xp, geometry, x, y, workspace):
        """A depthwise convolution: the sum over kernel offsets of the shifted inputs times
        their per-channel weights. NumPy sums each output's window in one pass (``einsum``
        over a strided view of the windows, 2.5-3x faster than DeepLab's depthwise layers as
        a pass per offset); CuPy takes a pass per offset."""
        padded = _padded(geometry, x, workspace, 0)
        if not is_cupy(xp):
            xp.einsum('nhwijc,ijc->nhwc', geometry.windows(padded, 1), self._matrix, out=y)
            return
        kh, kw = geometry.ksize
        term = block_view(workspace['tap'], y.shape, y.dtype)
        for i in range(kh):
            for j in range(kw):
                tap = geometry.at_offset(padded, (i, j), 1)
                if i == 0 and j == 0:
                    xp.multiply(tap, self._matrix[0, 0], out=y)
                else:
                    xp.multiply(tap, self._matrix[i, j], out=term)
                    xp.add(y, term, out=y)

    def describe(self):
        kh, kw = self.W.shape[2:]
        text = (f'Conv2D {kh}x{kw}/{self.stride[0]} {self.W.shape[1] * self.groups}->'
                f'{self.W.shape[0]}')
        if self.groups > 1:
            text += f' groups={self.groups}'
        if self.b is not None:
            text += ' +bias'
        if self.residual:
            text += ' +residual'
        return text + _describe_activation(self.activation)


class Linear(Op):
    """``x W^T + b`` for ``x`` ``(N, I)``, ``W`` ``(O, I)`` and ``b`` ``(O,)`` or None: a
    fully connected layer."""

    def __init__(self, inputs, outputs, W, b):
        super().__init__(inputs, outputs)
        self.W = W
        self.b = b

    def input_layouts(self, graph):
        return [NCHW]

    def output_layout(self, graph):
        return NCHW

    def run(self, inputs, out, workspace):
        x, = inputs
        xp = _array_module(x)
        y = _matmul(xp, x, self.W.T, _output(xp, out, (x.shape[0], self.W.shape[0]), x.dtype))
        if self.b is not None:
            xp.add(y, self.b, out=y)
        return y

    def describe(self):
        return f'Linear {self.W.shape[1]}->{self.W.shape[0]}'


class Affine(Op):
    """``x * scale + shift`` with one scale and shift per channel (axis 1 of the logical
    shape): a batch normalization with fixed statistics."""

    inplace = 0

    def __init__(self, inputs, outputs, scale, shift):
        super().__init__(inputs, outputs)
        self.scale = scale
        self.shift = shift

    def run(self, inputs, out, workspace):
        x, = inputs
        xp = _array_module(x)
        y = _output(xp, out, x.shape, x.dtype)
        if self.in_layouts[0] == NHWC:
            scale, shift = self.scale, self.shift
        else:
            shape = (-1,) + (1,) * (x.ndim - 2)
            scale, shift = self.scale.reshape(shape), self.shift.reshape(shape)
        xp.multiply(x, scale, out=y)
        xp.add(y, shift, out=y)
        return y

    def describe(self):
        return 'Affine'


class Activation(Op):
    """ReLU (``('relu',)``) or ReLU clipped at ``cap`` (``('clip', cap)``)."""

    inplace = 0

    def __init__(self, inputs, outputs, activation):
        super().__init__(inputs, outputs)
        self.activation = activation

    def run(self, inputs, out, workspace):
        x, = inputs
        xp = _array_module(x)
        y = _output(xp, out, x.shape, x.dtype)
        if self.activation[0] == 'relu':
            xp.maximum(x, 0, out=y)
        else:
            xp.clip(x, 0, self.activation[1], out=y)
        return y

    def describe(self):
        return 'Activation' + _describe_activation(self.activation)


class Add(Op):
    """The sum of two values of one shape."""

    inplace = 0

    def input_layouts(self, graph):
        return [None, graph.values[self.inputs[0]].layout]

    def run(self, inputs, out, workspace):
        a, b = inputs
        xp = _array_module(a)
        y = _output(xp, out, a.shape, a.dtype)
        xp.add(a, b, out=y)
        return y


class ChannelScale(Op):
    """``x * factor`` for a 4-D ``x`` and a factor ``(N, C, 1, 1)`` or ``(1, C, 1, 1)``: one
    number per image and channel (a squeeze-and-excitation block's gating), in either layout
    of ``x``."""

    inplace = 0

    def input_layouts(self, graph):
        return [None, NCHW]

    def run(self, inputs, out, workspace):
        x, factor = inputs
        xp = _array_module(x)
        y = _output(xp, out, x.shape, x.dtype)
        if self.in_layouts[0] == NHWC:
            factor = factor.reshape(factor.shape[0], 1, 1, factor.shape[1])
        xp.multiply(x, factor, out=y)
        return y


class Pool2D(Op):
    """Max pooling, or average pooling divided by ``divisor`` (a number, or None for the
    number of input elements in each window), channels-last.

    A max pooling with two outputs also gives the index of each maximum in its flattened
    window (the first one where several are equal), as
    :func:`~framework.functions.max_pooling_2d` with ``return_indices`` does: the second
    output, of the integer dtype traced, which :class:`Unpool2D` reads.
    """

    def __init__(self, inputs, outputs, kind, ksize, stride, pad, divisor=None):
        super().__init__(inputs, outputs)
        self.kind = kind
        self.ksize = tuple(ksize)
        self.stride = tuple(stride)
        self.pad = tuple(pad)
        self.divisor = divisor
        self._counts = None
        self._geometry = None
        self._index_dtype = None

    def input_layouts(self, graph):
        return [NHWC]

    def output_layout(self, graph):
        return NHWC

    def _window_geometry(self, graph):
        x, y = graph.values[self.inputs[0]], graph.values[self.outputs[0]]
        return WindowGeometry(x.shape[2:], y.shape[2:], self.ksize, self.stride, self.pad)

    def workspace(self, graph):
        n, c = graph.values[self.inputs[0]].shape[:2]
        dtype = graph.values[self.inputs[0]].dtype
        geometry = self._window_geometry(graph)
        workspace = {'pad': _pad_bytes(geometry, n, c, dtype)}
        if len(self.outputs) == 2:
            workspace['mask'] = n * math.prod(geometry.out_size) * c
        return workspace

    def prepare(self, graph):
        self._geometry = self._window_geometry(graph)
        if self.kind == 'average' and self.divisor is None:
            counts = self._geometry.valid_counts(graph.xp, graph.values[self.inputs[0]].dtype)
            self._counts = counts[..., None]
        if len(self.outputs) == 2:
            self._index_dtype = graph.values[self.outputs[1]].dtype

    def run(self, inputs, out, workspace):
        x, = inputs
        xp = _array_module(x)
        geometry = self._geometry
        shape = (x.shape[0],) + geometry.out_size + (x.shape[3],)
        with_indexes = len(self.outputs) == 2
        out, index_out = out if with_indexes else (out, None)
        y = _output(xp, out, shape, x.dtype)
        indexes = _output(xp, index_out, shape, self._index_dtype) if with_indexes else None
        greater = block_view(workspace['mask'], shape, numpy.bool_) if with_indexes else None
        fill = -numpy.inf if self.kind == 'max' else 0
        padded = _padded(geometry, x, workspace, fill)
        reduce = xp.maximum if self.kind == 'max' else xp.add
        for k, offset in enumerate(numpy.ndindex(self.ksize)):
            tap = geometry.at_offset(padded, offset, 1)
            if k == 0:
                xp.copyto(y, tap)
                if with_indexes:
                    indexes.fill(0)
                continue
            if with_indexes:
                xp.greater(tap, y, out=greater)  # strictly: the first maximum keeps its index
                xp.copyto(indexes, k, where=greater)
            reduce(y, tap, out=y)
        if self.kind == 'average':
            xp.divide(y, self.divisor if self._counts is None else self._counts, out=y)
        return (y, indexes) if with_indexes else y

    def describe(self):
        return (f'Pool2D {self.kind} {self.ksize[0]}x{self.ksize[1]}/{self.stride[0]}'
                + (' with indices' if len(self.outputs) == 2 else ''))


class Unpool2D(Op):
    """Each value of ``x`` put at the element of its window given by ``indexes`` (the
    second output of a max :class:`Pool2D`), zeros elsewhere, channels-last: the upsampling of
    :func:`~framework.functions.upsampling_2d`, for windows that do not overlap.

    Args:
        inputs: ``[x, indexes]``, both of the pooled shape.
        geometry (WindowGeometry): the pooling's windows (its input size is the output's).
    """

    def __init__(self, inputs, outputs, geometry: WindowGeometry):
        super().__init__(inputs, outputs)
        self.geometry = geometry

    def input_layouts(self, graph):
        return [NHWC, NHWC]

    def output_layout(self, graph):
        return NHWC

    def workspace(self, graph):
        n, c = graph.values[self.outputs[0]].shape[:2]
        return {'pad': _pad_bytes(self.geometry, n, c, graph.values[self.inputs[0]].dtype),
                'mask': n * math.prod(self.geometry.out_size) * c}

    def run(self, inputs, out, workspace):
        x, indexes = inputs
        xp = _array_module(x)
        geometry = self.geometry
        n, c = x.shape[0], x.shape[3]
        y = _output(xp, out, (n,) + geometry.in_size + (c,), x.dtype)
        target = y
        if geometry.needs_padding:
            target = block_view(workspace['pad'], geometry.padded_shape(y.shape, 1), x.dtype)
        target.fill(0)
        mask = block_view(workspace['mask'], x.shape, numpy.bool_)
        for k, offset in enumerate(numpy.ndindex(geometry.ksize)):
            xp.equal(indexes, k, out=mask)
            xp.copyto(geometry.at_offset(target, offset, 1), x, where=mask)
        if target is not y:
            xp.copyto(y, target[(slice(None),) + tuple(
                slice(p, p + size) for p, size in zip(geometry.pad, geometry.in_size))])
        return y

    def describe(self):
        k = self.geometry.ksize
        return f'Unpool2D {k[0]}x{k[1]}/{self.geometry.stride[0]}'


class GlobalMean(Op):
    """The mean over the spatial axes of a 4-D value, ``(N, C)`` or, with ``keepdims``,
    ``(N, C, 1, 1)``."""

    def __init__(self, inputs, outputs, keepdims):
        super().__init__(inputs, outputs)
        self.keepdims = keepdims

    def output_layout(self, graph):
        return NCHW

    def run(self, inputs, out, workspace):
        x, = inputs
        xp = _array_module(x)
        channels_last = self.in_layouts[0] == NHWC
        axes = (1, 2) if channels_last else (2, 3)
        y = _output(xp, out, (x.shape[0], x.shape[3 if channels_last else 1]) +
                    ((1, 1) if self.keepdims else ()), x.dtype)
        xp.mean(x, axis=axes, out=y.reshape(y.shape[:2]))
        return y


class Concat(Op):
    """4-D values joined along the channels, in the layout that holds most of their elements:
    channels-last where convolutions produced them (a pyramid pooling's or a decoder's join),
    so that neither the join nor the convolution after it needs a transpose."""

    def input_layouts(self, graph):
        held = {NCHW: 0, NHWC: 0}
        for v in self.inputs:
            value = graph.values[v]
            held[value.layout] += math.prod(value.shape)
        return [NHWC if held[NHWC] > held[NCHW] else NCHW] * len(self.inputs)

    def run(self, inputs, out, workspace):
        xp = _array_module(inputs[0])
        axis = 3 if self.in_layouts[0] == NHWC else 1
        shape = list(inputs[0].shape)
        shape[axis] = sum(x.shape[axis] for x in inputs)
        y = _output(xp, out, tuple(shape), inputs[0].dtype)
        xp.concatenate(inputs, axis=axis, out=y)
        return y


class Resample(Op):
    """``rows @ x @ cols.T`` over the spatial axes of a 4-D value, in either layout: the
    interpolation of :func:`~framework.functions.resize_images` by its two matrices
    ``rows`` ``(H_O, H)`` and ``cols`` ``(W_O, W)``."""

    def __init__(self, inputs, outputs, rows, cols):
        super().__init__(inputs, outputs)
        self.rows = rows
        self.cols = cols

    def run(self, inputs, out, workspace):
        x, = inputs
        xp = _array_module(x)
        rows = self.rows.astype(x.dtype, copy=False)
        cols = self.cols.astype(x.dtype, copy=False)
        (out_h, h), (out_w, w) = rows.shape, cols.shape
        if self.in_layouts[0] == NHWC:
            n, c = x.shape[0], x.shape[3]
            y = _output(xp, out, (n, out_h, out_w, c), x.dtype)
            tall = _matmul(xp, rows, x.reshape(n, h, w * c)).reshape(n * out_h, w, c)
            _matmul(xp, cols, tall, y.reshape(n * out_h, out_w, c))
            return y
        n, c = x.shape[:2]
        y = _output(xp, out, (n, c, out_h, out_w), x.dtype)
        _matmul(xp, _matmul(xp, rows, x), cols.T, y)
        return y

    def describe(self):
        return f'Resample to {self.rows.shape[0]}x{self.cols.shape[0]}'


class Transpose(Op):
    """A 4-D value moved to the layout ``layout``."""

    def __init__(self, inputs, outputs, layout):
        super().__init__(inputs, outputs)
        self.layout = layout

    def output_layout(self, graph):
        return self.layout

    def run(self, inputs, out, workspace):
        x, = inputs
        xp = _array_module(x)
        axes = (0, 2, 3, 1) if self.layout == NHWC else (0, 3, 1, 2)
        view = x.transpose(axes)
        y = _output(xp, out, view.shape, x.dtype)
        xp.copyto(y, view)
        return y

    def describe(self):
        return f'Transpose to {self.layout}'


def _array_module(x):
    return backend.get_array_module(x)

"""Replacing the function nodes of a traced graph by the graph's own operations.

A node is replaced where its meaning is known and its arguments allow: 2-D convolutions and
fully connected layers with constant weights, batch normalizations with constant statistics,
ReLU and clipped ReLU, sums of two values of one shape, products scaling the channels of 4-D
values, 2-D max and average pooling (the max pooling's indices too) and the upsampling by
those indices, the mean over the spatial axes, joins of 4-D values along the channels and the
resampling of images (:func:`~framework.functions.resize_images`). Every other node stays,
run as it is.
"""

from __future__ import annotations

import numpy

from framework.functions.activation.clipped_relu import ClippedReLU
from framework.functions.activation.relu import ReLU
from framework.functions.array.broadcast import BroadcastTo
from framework.functions.array.concat import Concat
from framework.functions.array.resize_images import Resample
from framework.functions.connection.convolution_nd import ConvolutionND
from framework.functions.connection.linear import LinearFunction
from framework.functions.math.average import Mean
from framework.functions.math.basic_math import Add as AddNode
from framework.functions.math.basic_math import Mul as MulNode
from framework.functions.normalization.batch_normalization import (
    FixedBatchNormalization,
    fixed_normalization_affine,
)
from framework.functions.pooling._window_adjoints import AveragePooling, Upsampling
from framework.functions.pooling.max_pooling_nd import MaxPoolingND
from framework.graph import ops
from framework.graph.graph import Graph, NodeOp

_GEMM_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def _convolution(graph, op, producers):
    node = op.node
    x, W = (graph.values[v] for v in op.inputs[:2])
    consts = [graph.values[v].const for v in op.inputs[1:]]
    if (W.const is None or len(W.shape) != 4 or any(c is None for c in consts)
            or x.dtype not in _GEMM_DTYPES or W.dtype != x.dtype):
        return None
    b = consts[1] if len(consts) == 2 else None
    if b is not None and b.dtype != x.dtype:
        return None
    return ops.Conv2D(op.inputs[:1], op.outputs, W.const, b, node.stride, node.pad,
                      node.dilate, node.groups)


def _linear(graph, op, producers):
    x, W = (graph.values[v] for v in op.inputs[:2])
    consts = [graph.values[v].const for v in op.inputs[1:]]
    if (len(x.shape) != 2 or any(c is None for c in consts) or x.dtype not in _GEMM_DTYPES
            or any(c.dtype != x.dtype for c in consts)):
        return None
    return ops.Linear(op.inputs[:1], op.outputs, consts[0],
                      consts[1] if len(consts) == 2 else None)


def _batch_normalization(graph, op, producers):
    node = op.node
    x = graph.values[op.inputs[0]]
    gamma, beta, mean, var = (graph.values[v].const for v in op.inputs[1:])
    channels = x.shape[1] if len(x.shape) > 1 else 0
    expected = (1, channels) + (1,) * (len(x.shape) - 2)
    if (any(p is None for p in (gamma, beta, mean, var)) or tuple(node.param_shape) != expected
            or x.dtype not in _GEMM_DTYPES):
        return None
    scale, shift = fixed_normalization_affine(gamma, beta, mean, var, node.eps, x.dtype)
    return ops.Affine(op.inputs[:1], op.outputs, scale.ravel(), shift.ravel())


def _add(graph, op, producers):
    shapes = {graph.values[v].shape for v in op.inputs}
    dtypes = {graph.values[v].dtype for v in op.inputs}
    if len(op.inputs) != 2 or len(shapes) != 1 or len(dtypes) != 1:
        return None
    return ops.Add(op.inputs, op.outputs)


def _channel_factor(graph, value, producers, shape):
    """The ``(N or 1, C, 1, 1)`` value that ``value`` is, or is broadcast from, to multiply
    the channels of an array of ``shape``; None when it is not one."""
    source = producers.get(value)
    if isinstance(source, NodeOp) and isinstance(source.node, BroadcastTo):
        value = source.inputs[0]
    factor = graph.values[value].shape
    if len(factor) == 4 and factor[0] in (1, shape[0]) and factor[1:] == (shape[1], 1, 1):
        return value
    return None


def _mul(graph, op, producers):
    if len(op.inputs) != 2 or len({graph.values[v].dtype for v in op.inputs}) != 1:
        return None
    out_shape = graph.values[op.outputs[0]].shape
    if len(out_shape) != 4:
        return None
    for x, other in (op.inputs, op.inputs[::-1]):
        factor = _channel_factor(graph, other, producers, out_shape)
        if graph.values[x].shape == out_shape and factor is not None:
            return ops.ChannelScale([x, factor], op.outputs)
    return None


def _pooling(graph, op, producers):
    windows = op.node.windows
    if len(windows.ksize) != 2 or graph.values[op.inputs[0]].const is not None:
        return None
    if isinstance(op.node, MaxPoolingND):
        return ops.Pool2D(op.inputs, op.outputs, 'max', windows.ksize, windows.stride,
                          windows.pad)
    return ops.Pool2D(op.inputs, op.outputs, 'average', windows.ksize, windows.stride,
                      windows.pad, op.node.divisor)


def _upsampling(graph, op, producers):
    geometry = op.node.windows.geometry
    x, indexes = (graph.values[v] for v in op.inputs)
    if (len(geometry.ksize) != 2 or indexes.const is not None
            or any(k > s for k, s in zip(geometry.ksize, geometry.stride))):
        return None
    return ops.Unpool2D(op.inputs, op.outputs, geometry)


def _mean(graph, op, producers):
    node = op.node
    if len(graph.values[op.inputs[0]].shape) != 4 or tuple(sorted(node.axes or ())) != (2, 3):
        return None
    return ops.GlobalMean(op.inputs, op.outputs, node.keepdims)


def _concat(graph, op, producers):
    shapes = [graph.values[v].shape for v in op.inputs]
    if (op.node.axis != 1 or any(len(shape) != 4 for shape in shapes)
            or len({graph.values[v].dtype for v in op.inputs}) != 1):
        return None
    return ops.Concat(op.inputs, op.outputs)


def _resample(graph, op, producers):
    x = graph.values[op.inputs[0]]
    if len(x.shape) != 4 or x.dtype not in _GEMM_DTYPES:
        return None
    return ops.Resample(op.inputs, op.outputs, op.node.rows, op.node.cols)


_RULES = {
    ConvolutionND: _convolution,
    LinearFunction: _linear,
    FixedBatchNormalization: _batch_normalization,
    ReLU: lambda graph, op, producers: ops.Activation(op.inputs, op.outputs, ('relu',)),
    ClippedReLU: lambda graph, op, producers: ops.Activation(op.inputs, op.outputs,
                                                             ('clip', op.node.cap)),
    AddNode: _add,
    MulNode: _mul,
    MaxPoolingND: _pooling,
    AveragePooling: _pooling,
    Upsampling: _upsampling,
    Mean: _mean,
    Concat: _concat,
    Resample: _resample,
}


def lower(graph: Graph) -> None:
    """Replaces, in place, the nodes of ``graph`` that have an op of their own."""
    producers = graph.producers()
    for i, op in enumerate(graph.ops):
        if not isinstance(op, NodeOp) or graph.values[op.inputs[0]].const is not None:
            continue
        rule = _RULES.get(type(op.node))
        lowered = rule(graph, op, producers) if rule is not None else None
        if lowered is not None:
            graph.ops[i] = lowered

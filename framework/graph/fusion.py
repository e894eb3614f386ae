"""Fusing what follows a convolution into it.

Three rewrites, each where the convolution's output is read by the next op alone (and is not
an output of the graph):

- a per-channel affine map (a batch normalization with fixed statistics) is folded into the
  filters and the bias: ``(W x + b) * s + t = (s W) x + (s b + t)`` (:func:`fold_affine`,
  with which eager inference folds too);
- a sum with another value becomes the convolution's residual input, added to its output (the
  convolution moves to where the sum was, so that the other value exists by then);
- an activation is applied to the convolution's output in place.
"""

from __future__ import annotations

from framework.functions.normalization.batch_normalization_folding import fold_affine
from framework.graph import ops
from framework.graph.graph import Graph


def _sole_reader(graph: Graph, value: int):
    """The op that alone reads ``value``, once; None when there is not one."""
    if value in graph.outputs:
        return None
    readers = graph.consumers().get(value, [])
    if len(readers) != 1 or readers[0].inputs.count(value) != 1:
        return None
    return readers[0]


def _fold_affine(graph, conv, affine) -> bool:
    if conv.residual or conv.activation is not None:
        return False
    conv.W, conv.b = fold_affine(conv.W, conv.b, affine.scale, affine.shift)
    conv.outputs = affine.outputs
    graph.ops.remove(affine)
    return True


def _fuse_residual(graph, conv, add) -> bool:
    if conv.residual or conv.activation is not None:
        return False
    other = add.inputs[1] if add.inputs[0] == conv.outputs[0] else add.inputs[0]
    conv.inputs.append(other)
    conv.outputs = add.outputs
    graph.ops.remove(conv)
    graph.ops[graph.ops.index(add)] = conv
    return True


def _fuse_activation(graph, conv, activation) -> bool:
    if conv.activation is not None:
        return False
    conv.activation = activation.activation
    conv.outputs = activation.outputs
    graph.ops.remove(activation)
    return True


_REWRITES = ((ops.Affine, _fold_affine), (ops.Add, _fuse_residual),
             (ops.Activation, _fuse_activation))


def fuse(graph: Graph) -> None:
    """Applies the rewrites above to ``graph`` in place, each wherever it can."""
    for reader_type, rewrite in _REWRITES:
        for conv in [op for op in graph.ops if isinstance(op, ops.Conv2D)]:
            reader = _sole_reader(graph, conv.outputs[0])
            if isinstance(reader, reader_type):
                rewrite(graph, conv, reader)

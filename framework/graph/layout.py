"""Choosing how each 4-D value is held: channels-first as traced, or channels-last where the
ops that produce it compute channels-last.

Walking the ops in order, each input is given the layout its op asks for, a
:class:`~framework.graph.ops.Transpose` being inserted where its producer held it otherwise
(once per value and layout); each output takes the layout its op produces. The graph's
outputs are returned channels-first.
"""

from __future__ import annotations

from framework.graph import ops
from framework.graph.graph import NCHW, Graph


def assign_layouts(graph: Graph) -> None:
    """Sets the layout of every value of ``graph`` and inserts the conversions, in place."""
    converted: dict[tuple[int, str], int] = {}
    result = []

    def in_layout(value: int, layout: str | None) -> int:
        held = graph.values[value]
        if layout is None or held.layout == layout or len(held.shape) != 4:
            return value
        key = (value, layout)
        if key not in converted:
            if held.const is not None:
                array = held.const
                axes = (0, 2, 3, 1) if layout != NCHW else (0, 3, 1, 2)
                converted[key] = graph.add_value(held.shape, held.dtype,
                                                 graph.xp.ascontiguousarray(
                                                     array.transpose(axes)), layout)
            else:
                converted[key] = graph.add_value(held.shape, held.dtype, layout=layout)
                transpose = ops.Transpose([value], [converted[key]], layout)
                transpose.in_layouts = [held.layout]
                result.append(transpose)
        return converted[key]

    for op in graph.ops:
        op.inputs = [in_layout(v, layout)
                     for v, layout in zip(op.inputs, op.input_layouts(graph))]
        op.in_layouts = [graph.values[v].layout for v in op.inputs]
        layout = op.output_layout(graph)
        for v in op.outputs:
            if len(graph.values[v].shape) == 4:
                graph.values[v].layout = layout
        result.append(op)
    graph.outputs = [in_layout(v, NCHW) for v in graph.outputs]
    graph.ops = result

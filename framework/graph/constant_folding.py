"""Constant folding: operations whose inputs are all constants are computed once."""

from __future__ import annotations

from framework.graph.graph import Graph


def fold_constants(graph: Graph) -> None:
    """Computes, in place, each op of ``graph`` that reads only constants, and makes its
    outputs constants."""
    kept = []
    for op in graph.ops:
        inputs = [graph.values[v].const for v in op.inputs]
        if not inputs or any(x is None for x in inputs):
            kept.append(op)
            continue
        result = op.run(inputs, None, {})
        results = result if isinstance(result, tuple) else (result,)
        for v, array in zip(op.outputs, results):
            graph.values[v].const = array
    graph.ops = kept

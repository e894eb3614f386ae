"""Dead-code elimination: operations whose outputs nothing reads are removed."""

from __future__ import annotations

from framework.graph.graph import Graph


def eliminate_dead_ops(graph: Graph) -> None:
    """Removes, in place, the ops of ``graph`` none of whose outputs is read by a later op or
    returned (such as a broadcast that a lowered product no longer reads)."""
    needed = set(graph.outputs)
    kept = []
    for op in reversed(graph.ops):
        if any(v in needed for v in op.outputs):
            kept.append(op)
            needed.update(op.inputs)
    graph.ops = kept[::-1]

"""Memory planning: which block of storage holds each value, decided once per graph.

Values written by planned ops share a few blocks allocated once: walking the ops in order,
an output takes its input's block when the op may compute in place and nothing reads the
input later, else the smallest free block that fits (or the largest free one, grown, or a new
one), and a block is freed after the last read of the values in it (MXNet's static memory
allocation). A node run as it is may return views of its inputs, so its inputs count as read
for as long as its outputs are. The graph's outputs are never put in blocks: the caller keeps
them, so they are allocated at each call.
"""

from __future__ import annotations

import math

import numpy

from framework.graph.graph import Graph


class MemoryPlan:
    """Attributes:
        block_sizes (list of int): the bytes of each block.
        block_of (dict): the block of each planned value.
        workspace (dict): the bytes of each named workspace (shared by every op).
        aliased_outputs (set of int): the positions of the graph's outputs that may be views
            of a block, or are constants (they are copied before being returned).
        last_reads (dict): the index of the last op that reads each value (extended as
            above; the number of ops for the graph's outputs).
    """

    def __init__(self):
        self.block_sizes: list[int] = []
        self.block_of: dict[int, int] = {}
        self.workspace: dict[str, int] = {}
        self.aliased_outputs: set[int] = set()
        self.last_reads: dict[int, int] = {}


def block_view(block, shape, dtype):
    """An array of ``shape`` and ``dtype`` at the start of ``block``, a byte array (a block of
    a plan or a workspace)."""
    dtype = numpy.dtype(dtype)
    return block[:math.prod(shape) * dtype.itemsize].view(dtype).reshape(shape)


def _last_reads(graph: Graph) -> dict[int, int]:
    last = {}
    for i, op in enumerate(graph.ops):
        for v in op.inputs:
            last[v] = i
    for v in graph.outputs:
        last[v] = len(graph.ops)
    for i in reversed(range(len(graph.ops))):
        op = graph.ops[i]
        if not op.planned:
            end = max(last.get(v, i) for v in op.outputs)
            for v in op.inputs:
                last[v] = max(last.get(v, i), end)
    return last


def _take_block(plan: MemoryPlan, free: list[int], nbytes: int) -> int:
    fitting = [b for b in free if plan.block_sizes[b] >= nbytes]
    if fitting:
        block = min(fitting, key=lambda b: plan.block_sizes[b])
    elif free:
        block = max(free, key=lambda b: plan.block_sizes[b])
        plan.block_sizes[block] = nbytes
    else:
        plan.block_sizes.append(nbytes)
        return len(plan.block_sizes) - 1
    free.remove(block)
    return block


def plan_memory(graph: Graph) -> MemoryPlan:
    """Plans the storage of ``graph``'s values (see the module's description)."""
    plan = MemoryPlan()
    last = plan.last_reads = _last_reads(graph)
    outputs = set(graph.outputs)
    free: list[int] = []
    holders = []  # the number of live values in each block
    aliases: dict[int, set[int]] = {}
    for i, op in enumerate(graph.ops):
        for name, nbytes in op.workspace(graph).items():
            plan.workspace[name] = max(plan.workspace.get(name, 0), nbytes)
        for v in op.outputs:
            if not op.planned:
                aliases[v] = set().union(*(aliases.get(u, set()) for u in op.inputs))
                continue
            if v in outputs:
                continue
            block = None
            if op.inplace is not None:
                source = op.inputs[op.inplace]
                shared = plan.block_of.get(source)
                if (shared is not None and last[source] == i and holders[shared] == 1
                        and plan.block_sizes[shared] >= graph.values[v].nbytes):
                    block = shared
            if block is None:
                block = _take_block(plan, free, graph.values[v].nbytes)
                if block == len(holders):
                    holders.append(0)
            plan.block_of[v] = block
            holders[block] += 1
            aliases[v] = {block}
        for v in dict.fromkeys(op.inputs + op.outputs):
            block = plan.block_of.get(v)
            if block is not None and last.get(v, i) == i:
                holders[block] -= 1
                if holders[block] == 0:
                    free.append(block)
    plan.aliased_outputs = {k for k, v in enumerate(graph.outputs)
                            if aliases.get(v) or graph.values[v].const is not None}
    return plan

"""The executor: runs a final graph on arrays, with its memory allocated once."""

from __future__ import annotations

import warnings

import numpy

from framework.config import config
from framework.cuda import is_cupy
from framework.graph.graph import Graph
from framework.graph.memory_plan import block_view, plan_memory


class Executor:
    """Runs ``graph`` (optimized, layouts assigned) on input arrays.

    The blocks and workspaces of its memory plan are allocated here, once; each call writes
    the planned values into them and allocates only the graph's outputs (and what nodes run
    as they are allocate), so calls are not thread-safe: use one executor per thread
    (:meth:`copy` makes another).

    On a GPU, with ``framework.config.use_cuda_graph`` on, the second call captures the run
    as a CUDA graph (:class:`framework.cuda.cuda_graph.CapturedRun`) and that call and the
    later ones replay it: one launch instead of one per kernel. A run that CUDA cannot capture
    (an op that synchronizes with the host) warns once and goes on running op by op.

    Args:
        graph (Graph): the graph, not changed afterwards.
    """

    def __init__(self, graph: Graph):
        self.graph = graph
        self.plan = plan_memory(graph)
        for op in graph.ops:
            op.prepare(graph)
        self._allocate()

    def copy(self) -> Executor:
        """Another executor of the same graph and plan, with memory of its own: for a call in
        another thread at the same time."""
        other = object.__new__(Executor)
        other.graph, other.plan = self.graph, self.plan
        other._allocate()
        return other

    #: The calls that run op by op before the run is captured (the first compiles the
    #: kernels and plans cuDNN's convolutions; a signature used once is never captured).
    CALLS_BEFORE_CAPTURE = 1

    def _allocate(self) -> None:
        graph, plan = self.graph, self.plan
        xp = graph.xp
        blocks = [xp.empty(size, numpy.uint8) for size in plan.block_sizes]
        self._workspace = {name: xp.empty(size, numpy.uint8)
                           for name, size in plan.workspace.items() if size}
        self._template = [value.const for value in graph.values]
        self._calls = 0
        self._captured = None
        self._capturable = is_cupy(xp) and bool(graph.inputs)
        self._steps = []
        for i, op in enumerate(graph.ops):
            out = None
            if op.planned:
                outs = [block_view(blocks[plan.block_of[v]], graph.values[v].physical_shape,
                                   graph.values[v].dtype) if v in plan.block_of else None
                        for v in op.outputs]
                out = outs[0] if len(outs) == 1 else tuple(outs)
            dead = [v for v in dict.fromkeys(op.inputs + op.outputs)
                    if plan.last_reads.get(v, i) == i and graph.values[v].const is None]
            self._steps.append((op, out, dead))

    def __call__(self, *inputs) -> list:
        """Computes the graph's outputs (arrays, in order) from its inputs."""
        graph = self.graph
        if len(inputs) != len(graph.inputs):
            raise TypeError(f'the graph takes {len(graph.inputs)} inputs, got {len(inputs)}')
        for k, (v, x) in enumerate(zip(graph.inputs, inputs)):
            expected = graph.values[v]
            if x.shape != expected.shape or x.dtype != expected.dtype:
                raise ValueError(f'input {k} must be of shape {expected.shape} and dtype '
                                 f'{expected.dtype} (as traced), got {x.shape} and {x.dtype}')
        if self._capturable and config.use_cuda_graph:
            if self._captured is not None:
                return self._captured(inputs)
            self._calls += 1
            if self._calls > self.CALLS_BEFORE_CAPTURE:
                return self._capture(inputs)
        return self._run(inputs)

    def _capture(self, inputs) -> list:
        from framework.cuda.cuda_graph import CapturedRun, CaptureError

        try:
            self._captured = CapturedRun(self._run, inputs)
        except CaptureError as error:
            self._capturable = False
            warnings.warn(f'{error}; it runs op by op', RuntimeWarning, stacklevel=3)
            return self._run(inputs)
        return self._captured(inputs)

    def _run(self, inputs) -> list:
        """The graph's outputs computed op by op."""
        graph = self.graph
        values = list(self._template)
        for v, x in zip(graph.inputs, inputs):
            values[v] = x
        workspace = self._workspace
        for op, out, dead in self._steps:
            result = op.run([values[v] for v in op.inputs], out, workspace)
            if len(op.outputs) == 1:
                values[op.outputs[0]] = result
            else:
                for v, y in zip(op.outputs, result):
                    values[v] = y
            for v in dead:
                values[v] = None
        xp = graph.xp
        return [xp.array(values[v]) if k in self.plan.aliased_outputs else values[v]
                for k, v in enumerate(graph.outputs)]


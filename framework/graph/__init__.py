"""Static graphs: a define-by-run function traced into a graph of operations, optimized
(constants folded, batch normalizations, residual additions and activations fused into the
convolutions, channels-last layouts for convolutions and poolings), its memory planned once,
and run; on a GPU, from its second call, replayed as one CUDA graph
(:mod:`framework.cuda.cuda_graph`).

``framework.graph.compile(model)`` gives a function computing what ``model`` computes in
inference, faster; :func:`trace`, :func:`optimize` and :class:`Executor` are its steps.
:class:`Hybridizable` gives a model's ``predict`` the switch to it (``model.hybridize()``).
"""

from framework.graph.compile import CompiledFunction, compile, optimize  # noqa: A004
from framework.graph.executor import Executor
from framework.graph.graph import Graph, Op, Structure, Value, trace
from framework.graph.hybridizable import Hybridizable
from framework.graph.memory_plan import MemoryPlan, plan_memory

__all__ = ['CompiledFunction', 'Executor', 'Graph', 'Hybridizable', 'MemoryPlan', 'Op',
           'Structure', 'Value', 'compile', 'optimize', 'plan_memory', 'trace']

"""Compiling a define-by-run function for inference: trace, optimize, plan, run."""

from __future__ import annotations

import collections
import threading

from framework import backend, function_node
from framework.config import using_config
from framework.graph.constant_folding import fold_constants
from framework.graph.dead_code import eliminate_dead_ops
from framework.graph.executor import Executor
from framework.graph.fusion import fuse
from framework.graph.graph import Graph, Structure, trace
from framework.graph.layout import assign_layouts
from framework.graph.lowering import lower
from framework.variable import Variable


def optimize(graph: Graph) -> None:
    """Rewrites a traced graph in place into the graph the executor runs: constants folded,
    nodes lowered to the graph's ops, unread ops removed, what follows convolutions fused into
    them, and the layouts chosen."""
    fold_constants(graph)
    lower(graph)
    eliminate_dead_ops(graph)
    fuse(graph)
    assign_layouts(graph)


class CompiledFunction:
    """A function run as a static graph, traced once per input signature.

    Calling it with arrays (or Variables) of a shape, dtype and device not seen before traces
    the function under ``train=False`` without backpropagation, optimizes the graph and plans
    its memory; later calls with that signature only run the plan. It returns what the
    function returns (a Variable, or a tuple, list or dict of them), as Variables that are not
    part of any graph. Calls from several threads run at the same time, each on memory of its
    own (a signature keeps one executor per call that ran at once).

    Parameters and other arrays the function reads are constants of the graph, some of them
    combined when it is traced (a batch normalization's into the filters of the convolution
    before it): after changing them (training, loading weights) call :meth:`reset`.

    Args:
        fn (callable): a function of Variables, e.g. a Link.
        max_graphs (int): how many signatures keep their graph (and its memory); the least
            recently used one is dropped beyond that (inputs of ever new sizes retrace).
    """

    def __init__(self, fn, max_graphs: int = 8):
        if isinstance(max_graphs, bool) or not isinstance(max_graphs, int) or max_graphs < 1:
            raise ValueError(f'max_graphs must be a positive int, but got {max_graphs!r}')
        self.fn = fn
        self.max_graphs = max_graphs
        self._signatures: collections.OrderedDict[tuple, _Signature] = (
            collections.OrderedDict())
        self._lock = threading.Lock()

    def __getstate__(self):
        # Copies and pickles keep the function; they trace again when first called.
        return {'fn': self.fn, 'max_graphs': self.max_graphs}

    def __setstate__(self, state):
        self.__init__(state['fn'], state['max_graphs'])

    def _signature(self, arrays) -> tuple:
        return tuple((a.shape, a.dtype.str, backend.get_device_from_array(a)) for a in arrays)

    def _entry(self, arrays) -> _Signature:
        """What the signature of ``arrays`` runs, traced and planned if new (called with the
        lock held)."""
        key = self._signature(arrays)
        entry = self._signatures.get(key)
        if entry is None:
            graph, structure = self._trace(arrays)
            optimize(graph)
            entry = self._signatures[key] = _Signature(Executor(graph), structure)
            if len(self._signatures) > self.max_graphs:
                self._signatures.popitem(last=False)
        else:
            self._signatures.move_to_end(key)
        return entry

    def _trace(self, arrays):
        with using_config('train', False):
            return trace(self.fn, *arrays)

    def graph(self, *inputs) -> Graph:
        """The optimized graph that runs for inputs like these."""
        with self._lock:
            return self._entry([_array(x) for x in inputs]).first.graph

    def reset(self) -> None:
        """Forgets every traced graph: the next calls trace again (with the current
        parameters)."""
        with self._lock:
            self._signatures.clear()

    def __call__(self, *inputs):
        if function_node.tracer_of_this_thread() is not None:
            # Inside another trace: compute with functions, for that trace to record them.
            return self.fn(*inputs)
        arrays = [_array(x) for x in inputs]
        for i, a in enumerate(arrays):
            if not backend.is_array(a):
                raise TypeError(f'input {i} must be an array or a Variable, '
                                f'got {type(a).__name__}')
        with self._lock:
            entry = self._entry(arrays)
            executor = entry.idle.pop() if entry.idle else None
        if executor is None:
            executor = entry.first.copy()
        try:
            results = executor(*arrays)
        finally:
            with self._lock:
                entry.idle.append(executor)
        outputs = [Variable(y, requires_grad=False) for y in results]
        return entry.structure.unflatten(outputs)


class _Signature:
    """What one input signature runs: its first executor (whose graph and plan the others
    copy), the executors no call is using, and the structure of the function's outputs."""

    __slots__ = ('first', 'idle', 'structure')

    def __init__(self, first: Executor, structure: Structure):
        self.first = first
        self.idle = [first]
        self.structure = structure


def _array(x):
    return x.array if isinstance(x, Variable) else x


def compile(fn, max_graphs: int = 8) -> CompiledFunction:  # noqa: A001 (PyTorch's name)
    """Compiles ``fn`` for fast inference: see :class:`CompiledFunction`.

    Example::

        model = ResNet50(pretrained_model='imagenet')
        fast = framework.graph.compile(model)
        prob = fast(x).array  # as model(x) with train off, faster
    """
    return CompiledFunction(fn, max_graphs)

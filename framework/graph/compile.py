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
    part of any graph. Calls from several threads run one at a time.

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
        self._executors: collections.OrderedDict[tuple, tuple[Executor, Structure]] = (
            collections.OrderedDict())
        self._lock = threading.Lock()  # an executor's memory serves one call at a time

    def __getstate__(self):
        # Copies and pickles keep the function; they trace again when first called.
        return {'fn': self.fn, 'max_graphs': self.max_graphs}

    def __setstate__(self, state):
        self.__init__(state['fn'], state['max_graphs'])

    def _signature(self, arrays) -> tuple:
        return tuple((a.shape, a.dtype.str, backend.get_device_from_array(a)) for a in arrays)

    def _executor(self, arrays) -> tuple[Executor, Structure]:
        key = self._signature(arrays)
        entry = self._executors.get(key)
        if entry is None:
            graph, structure = self._trace(arrays)
            optimize(graph)
            entry = self._executors[key] = (Executor(graph), structure)
            if len(self._executors) > self.max_graphs:
                self._executors.popitem(last=False)
        else:
            self._executors.move_to_end(key)
        return entry

    def _trace(self, arrays):
        with using_config('train', False):
            return trace(self.fn, *arrays)

    def graph(self, *inputs) -> Graph:
        """The optimized graph that runs for inputs like these."""
        with self._lock:
            return self._executor([_array(x) for x in inputs])[0].graph

    def reset(self) -> None:
        """Forgets every traced graph: the next calls trace again (with the current
        parameters)."""
        with self._lock:
            self._executors.clear()

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
            executor, structure = self._executor(arrays)
            results = executor(*arrays)
        outputs = [Variable(y, requires_grad=False) for y in results]
        return structure.unflatten(outputs)


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

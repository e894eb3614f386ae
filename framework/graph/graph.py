"""The static graph: values and the operations between them, and tracing a define-by-run
function into one.

A :class:`Graph` is a list of operations in execution order over numbered values. A value is
a graph input, a constant (a parameter, a persistent array, or anything else the traced
function used that did not come from its inputs) or the output of one operation. Values have
their logical shape (the shape the define-by-run code saw) and a physical layout: 4-D values
may be held channels-last (``'nhwc'``, the array being ``(N, H, W, C)``) where the kernels that
produce and read them prefer it; every other value is held as it is (``'nchw'``).
"""

from __future__ import annotations

import threading

import numpy

from framework import backend
from framework import function_node as function_node_module
from framework.config import using_config
from framework.variable import Variable

NCHW = 'nchw'
NHWC = 'nhwc'


class Value:
    """A value of a graph.

    Attributes:
        shape (tuple of int): the logical shape.
        dtype (numpy.dtype): the dtype.
        const: the array of a constant, else None.
        layout (str): ``'nchw'`` (held as the logical shape) or ``'nhwc'`` (a 4-D value held
            as ``(N, H, W, C)``).
    """

    __slots__ = ('shape', 'dtype', 'const', 'layout')

    def __init__(self, shape, dtype, const=None, layout: str = NCHW):
        self.shape = tuple(shape)
        self.dtype = numpy.dtype(dtype)
        self.const = const
        self.layout = layout

    @property
    def physical_shape(self) -> tuple[int, ...]:
        """The shape of the array that holds the value."""
        if self.layout == NHWC:
            n, c, h, w = self.shape
            return n, h, w, c
        return self.shape

    @property
    def nbytes(self) -> int:
        return int(numpy.prod(self.shape, dtype=numpy.int64)) * self.dtype.itemsize


class Op:
    """An operation of a graph: reads the values ``inputs``, writes the values ``outputs``.

    Subclasses implement :meth:`run` and say how they use memory:

    Attributes:
        inputs (list of int), outputs (list of int): value indices.
        planned (bool): :meth:`run` writes its output into the array it is given (storage
            planned by :func:`~framework.graph.memory_plan.plan_memory`) rather than one it
            allocates.
        inplace (int or None): the input whose storage the output may take when that input
            is read by nothing later.
        in_layouts (list of str): the layout of each input, set when layouts are assigned.
    """

    planned = True
    inplace: int | None = None
    in_layouts: list[str] | None = None

    def __init__(self, inputs, outputs):
        self.inputs = list(inputs)
        self.outputs = list(outputs)

    def input_layouts(self, graph: Graph) -> list[str | None]:
        """The layout each input must have (None: any); by default each as it is."""
        return [None] * len(self.inputs)

    def output_layout(self, graph: Graph) -> str:
        """The layout of the output, given the (assigned) layouts of the inputs."""
        return graph.values[self.inputs[0]].layout

    def workspace(self, graph: Graph) -> dict[str, int]:
        """The bytes of each named workspace that :meth:`run` needs."""
        return {}

    def prepare(self, graph: Graph) -> None:
        """Precomputes what :meth:`run` needs, once the graph is final."""

    def run(self, inputs: list, out, workspace: dict):
        """Computes the output from the input arrays, into ``out`` when it is not None (an
        array of the output's physical shape and dtype), and returns it; for an op with several
        outputs, ``out`` is a tuple of such arrays or None (one per output) and the outputs
        are returned as a tuple."""
        raise NotImplementedError

    def describe(self) -> str:
        """One line saying what the op computes."""
        return type(self).__name__


class NodeOp(Op):
    """A function node run as it is: ``node.forward`` on the logical (``'nchw'``) arrays."""

    planned = False

    def __init__(self, node, inputs, outputs):
        super().__init__(inputs, outputs)
        self.node = node

    def input_layouts(self, graph):
        return [NCHW] * len(self.inputs)

    def output_layout(self, graph):
        return NCHW

    def run(self, inputs, out, workspace):
        outputs = self.node.forward(tuple(inputs))
        return outputs if len(outputs) > 1 else outputs[0]

    def describe(self):
        return self.node.label


class Graph:
    """Values and operations in execution order.

    Attributes:
        values (list of Value): every value, indexed by the ops.
        ops (list of Op): in an order where each op comes after the producers of its inputs.
        inputs (list of int), outputs (list of int): the values given and returned.
        xp: the array module of the traced arrays.
    """

    def __init__(self, xp):
        self.values: list[Value] = []
        self.ops: list[Op] = []
        self.inputs: list[int] = []
        self.outputs: list[int] = []
        self.xp = xp

    def add_value(self, shape, dtype, const=None, layout: str = NCHW) -> int:
        self.values.append(Value(shape, dtype, const, layout))
        return len(self.values) - 1

    def producers(self) -> dict[int, Op]:
        """The op that writes each value produced by an op."""
        return {v: op for op in self.ops for v in op.outputs}

    def consumers(self) -> dict[int, list[Op]]:
        """The ops that read each value (an op reading a value twice listed once)."""
        readers: dict[int, list[Op]] = {}
        for op in self.ops:
            for v in dict.fromkeys(op.inputs):
                readers.setdefault(v, []).append(op)
        return readers

    def __repr__(self):
        lines = [f'Graph(inputs={self.inputs}, outputs={self.outputs})']
        for op in self.ops:
            lines.append(f'  {op.outputs} = {op.describe()}({", ".join(map(str, op.inputs))})')
        return '\n'.join(lines)


class _Recorder:
    """Records the outermost function applications into a graph."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.thread = threading.get_ident()
        self.depth = 0
        self._by_variable: dict[int, int] = {}
        self._by_array: dict[int, int] = {}
        self._alive: list = []  # keeps the ids above from being reused while tracing

    def bind(self, var: Variable, index: int) -> None:
        self._by_variable[id(var)] = index
        self._by_array[id(var.array)] = index
        self._alive.append(var)

    def value_of(self, var: Variable) -> int:
        """The value a variable stands for: an earlier one, or a new constant."""
        index = self._by_variable.get(id(var))
        if index is None:
            index = self._by_array.get(id(var.array))
        if index is None:
            array = var.array
            index = self.graph.add_value(array.shape, array.dtype, const=array)
            self.bind(var, index)
        return index

    def record(self, node, input_variables, output_variables) -> None:
        inputs = [self.value_of(v) for v in input_variables]
        outputs = []
        for v in output_variables:
            index = self.graph.add_value(v.shape, v.dtype)
            self.bind(v, index)
            outputs.append(index)
        self.graph.ops.append(NodeOp(node, inputs, outputs))


class Structure:
    """How a function's results are arranged: one, a tuple (named or not) or list, or a dict
    (in its key order).

    Args:
        result: a result of the function.
    """

    def __init__(self, result):
        self.type = type(result) if isinstance(result, (tuple, list, dict)) else None
        self.keys = list(result) if isinstance(result, dict) else None

    def flatten(self, result) -> list:
        """The results in a list."""
        if self.type is None:
            return [result]
        return [result[k] for k in self.keys] if self.keys is not None else list(result)

    def unflatten(self, values: list):
        """``values`` arranged as the results were."""
        if self.type is None:
            return values[0]
        if self.keys is not None:
            return self.type(zip(self.keys, values))
        if hasattr(self.type, '_fields'):  # a named tuple
            return self.type(*values)
        return self.type(values)


def trace(fn, *inputs) -> tuple[Graph, Structure]:
    """Runs ``fn(*inputs)`` once and records the function applications it makes.

    The function runs under the current configuration with backpropagation disabled. What it
    computes with framework functions (in this thread) becomes operations of the graph; every
    other array it uses becomes a constant, read now: values computed outside framework
    functions from the inputs, and Python control flow that depends on them, are fixed to what
    this call saw.

    Args:
        fn (callable): takes Variables (one per input) and returns a Variable or array, or a
            tuple, list or dict of them.
        inputs (arrays): example inputs, all on one device.

    Returns:
        tuple: the :class:`Graph` (its outputs in the order of :meth:`Structure.flatten`) and
        the :class:`Structure` of the result.
    """
    if not inputs:
        raise ValueError('trace: give at least one example input')
    arrays = [x.array if isinstance(x, Variable) else x for x in inputs]
    for i, a in enumerate(arrays):
        if not backend.is_array(a):
            raise TypeError(f'trace: input {i} must be an array or a Variable, '
                            f'got {type(a).__name__}')
    graph = Graph(backend.get_array_module(*arrays))
    recorder = _Recorder(graph)
    variables = [Variable(a, requires_grad=False) for a in arrays]
    for var in variables:
        index = graph.add_value(var.shape, var.dtype)
        recorder.bind(var, index)
        graph.inputs.append(index)
    function_node_module.tracers.append(recorder)
    try:
        with using_config('enable_backprop', False):
            result = fn(*variables)
    finally:
        function_node_module.tracers.remove(recorder)
    structure = Structure(result)
    for y in structure.flatten(result):
        var = y if isinstance(y, Variable) else Variable(y, requires_grad=False)
        graph.outputs.append(recorder.value_of(var))
    if not graph.ops:
        raise ValueError('trace: the function applied no framework function to its inputs')
    return graph, structure

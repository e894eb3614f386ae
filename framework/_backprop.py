"""Reverse-mode traversal of the graph: ``Variable.backward`` and :func:`grad`.

Functions are visited in decreasing rank (generation) order from a heap, never by recursion, so
each function is run once after every gradient of its outputs is complete. Gradients of a
variable used several times are summed when they are consumed. Unless the graph is retained,
each function frees the arrays it retained as soon as its backward has run, so the peak memory
of a backward pass does not hold every activation at once.
"""

from __future__ import annotations

import heapq
import itertools

import numpy

from framework import backend
from framework.config import using_config
from framework.variable import Variable, VariableNode


class _GradTable:
    """Gradients of variable nodes, kept as lists and summed when read."""

    def __init__(self, double_backprop: bool):
        self._grads: dict[VariableNode, list[Variable]] = {}
        self._double_backprop = double_backprop

    def add(self, node: VariableNode, g: Variable | None) -> None:
        if g is not None:
            self._grads.setdefault(node, []).append(g)

    def nodes(self):
        return self._grads.keys()

    def pop(self, node: VariableNode) -> Variable | None:
        return self._sum(self._grads.pop(node, None))

    def _sum(self, grads):
        if not grads:
            return None
        if len(grads) == 1:
            return grads[0]
        if self._double_backprop:
            from framework.functions.math.basic_math import add
            return add(*grads)
        total = _as_array(grads[0].array + grads[1].array)
        for g in grads[2:]:
            total += g.array
        return Variable(total, requires_grad=False)


def _check_grad(func, node: VariableNode, g: Variable) -> None:
    array = g.array
    if node.shape is not None and array.shape != node.shape:
        raise ValueError(f'{func.label}.backward: gradient of an input of shape {node.shape} '
                         f'has shape {array.shape}')
    if node.dtype is not None and array.dtype != node.dtype:
        raise TypeError(f'{func.label}.backward: gradient of an input of dtype {node.dtype} '
                        f'has dtype {array.dtype}')


def _run_backward(func, target_indexes, grad_outputs):
    gxs = func.backward(target_indexes, grad_outputs)
    if not isinstance(gxs, tuple):
        gxs = tuple(gxs) if isinstance(gxs, list) else (gxs,)
    n_inputs = len(func.inputs)
    if len(gxs) == n_inputs and len(target_indexes) != n_inputs:
        gxs = tuple(gxs[i] for i in target_indexes)
    if len(gxs) != len(target_indexes):
        raise ValueError(f'{func.label}.backward returned {len(gxs)} gradients for '
                         f'{len(target_indexes)} requested inputs')
    return tuple(g if g is None or isinstance(g, Variable) else Variable(g, requires_grad=False)
                 for g in gxs)


def _traverse(out_nodes, seeds, wanted, retain_grad, double_backprop, retain_graph,
              capture=frozenset(), existing_leaf_grad=None, on_leaf_final=None):
    """Runs the backward pass from ``out_nodes``.

    Args:
        out_nodes: the output nodes.
        seeds: their initial gradients (Variables or None).
        wanted: a predicate on input nodes: whether their gradient is computed at all.
        retain_grad: store the final gradient of every intermediate variable in its ``grad_var``.
        double_backprop: record the graph of the backward computation.
        retain_graph: keep the retained arrays of each function for a later backward.
        capture: intermediate nodes whose final gradients are returned as well.
        existing_leaf_grad: a callable giving the gradient a leaf already has, to which the
            new one is added; None to start leaves from zero.
        on_leaf_final: a callable ``(node, grad)`` called for each leaf as soon as the last
            function that reads it has run, while the pass goes on; such leaves are not in the
            returned dict.

    Returns:
        dict mapping every reached leaf node, and every reached node of ``capture``, to its
        final gradient.
    """
    table = _GradTable(double_backprop)
    result = {}
    heap = []
    counter = itertools.count()
    pushed = set()

    def push(func):
        if func is not None and func not in pushed:
            pushed.add(func)
            heapq.heappush(heap, (-func.rank, next(counter), func))

    for node, g in zip(out_nodes, seeds):
        table.add(node, g)
        push(node.creator_node)
    seeded_leaves = set(out_nodes)
    readers = _leaf_readers(out_nodes) if on_leaf_final is not None else {}

    with using_config('enable_backprop', double_backprop):
        while heap:
            func = heapq.heappop(heap)[2]
            output_nodes = [ref() for ref in func.outputs]
            gys = tuple(None if y is None else table.pop(y) for y in output_nodes)
            for y, gy in zip(output_nodes, gys):
                if y is not None and y in capture:
                    result[y] = gy
                if retain_grad and gy is not None:
                    var = None if y is None else y.get_variable_or_none()
                    if var is not None:
                        var._grad_var = gy
            target = tuple(i for i, x in enumerate(func.inputs)
                           if x.requires_grad and _differentiable(x) and wanted(x))
            if target and any(gy is not None for gy in gys):
                device = backend.get_device_from_array(*(gy.array for gy in gys if gy is not None))
                with backend.using_device(device):
                    gxs = _run_backward(func, target, gys)
                for i, gx in zip(target, gxs):
                    if gx is None:
                        continue
                    x = func.inputs[i]
                    _check_grad(func, x, gx)
                    if x.creator_node is None and x not in seeded_leaves:
                        seeded_leaves.add(x)
                        if existing_leaf_grad is not None:
                            table.add(x, existing_leaf_grad(x))
                    table.add(x, gx)
                    push(x.creator_node)
                del gxs
            del gys
            if not retain_graph:
                func.release_retained()
            for x in func.inputs if readers else ():
                if x in readers:
                    readers[x] -= 1
                    if not readers[x]:
                        del readers[x]
                        grad = table.pop(x)
                        if grad is not None:
                            on_leaf_final(x, grad)

    for node in list(table.nodes()):
        result[node] = table.pop(node)
    return result


def _leaf_readers(out_nodes) -> dict:
    """For each leaf behind ``out_nodes``, how many inputs of functions behind them it is."""
    readers = {}
    seen = set()
    stack = [node.creator_node for node in out_nodes if node.creator_node is not None]
    while stack:
        func = stack.pop()
        if func in seen:
            continue
        seen.add(func)
        for x in func.inputs:
            if x.creator_node is None:
                readers[x] = readers.get(x, 0) + 1
            else:
                stack.append(x.creator_node)
    return readers


def backward(var: Variable, retain_grad: bool, enable_double_backprop: bool, loss_scale,
             retain_graph, on_leaf_grad=None) -> None:
    """Implements :meth:`Variable.backward`.

    ``on_leaf_grad(leaf)``, when given, is called for each leaf Variable as soon as its
    gradient is final, before the rest of the backward pass (an optimizer can update the
    parameter while earlier layers are differentiated).
    """
    if var.array is None:
        raise ValueError('backward: the variable has no data')
    gy = var.grad_var
    if gy is None:
        if var.size != 1:
            raise ValueError(f'backward: the variable has shape {var.shape}; without an initial '
                             'gradient backward() needs a single-element output. Set its grad '
                             'to the gradient to propagate.')
        gy = Variable(var.xp.ones_like(var.array), requires_grad=False)
    if loss_scale is not None:
        gy = _scaled(gy, loss_scale)
    if retain_graph is None:
        retain_graph = enable_double_backprop

    def existing_leaf_grad(node):
        leaf = node.get_variable_or_none()
        return None if leaf is None else leaf._grad_var

    owned = set()

    def set_leaf_grad(node, g):
        leaf = node.get_variable_or_none()
        if leaf is None or g is None or not node.requires_grad:
            return None
        if not enable_double_backprop:
            g = _owned(g, owned)
        leaf._grad_var = g
        leaf._loss_scale = loss_scale
        return leaf

    def leaf_final(node, g):
        leaf = set_leaf_grad(node, g)
        if leaf is not None:
            on_leaf_grad(leaf)

    leaf_grads = _traverse([var.node], [gy], _always, retain_grad, enable_double_backprop,
                           retain_graph, existing_leaf_grad=existing_leaf_grad,
                           on_leaf_final=leaf_final if on_leaf_grad is not None else None)
    for node, g in leaf_grads.items():
        leaf = set_leaf_grad(node, g)
        if leaf is not None and on_leaf_grad is not None:
            on_leaf_grad(leaf)


def _owned(g: Variable, owned: set) -> Variable:
    """``g``, or a copy of it when its array is a view, read-only (a broadcast) or already the
    gradient of another leaf: optimizers and hooks update leaf gradients in place."""
    array = g.array
    if (array.base is not None or not getattr(array.flags, 'writeable', True)  # CuPy: no flag
            or id(array) in owned):
        g = Variable(array.copy(), requires_grad=False)
    owned.add(id(g.array))
    return g


def _always(node):
    return True


def _differentiable(node):
    """Only floating-point variables have gradients (integer labels and indices do not)."""
    return node.dtype is None or node.dtype.kind == 'f'


def _nodes_reaching(out_nodes, input_nodes):
    """The nodes behind ``out_nodes`` from which some input node can be reached backward.

    Only through these do gradients flow from the outputs to the inputs.
    """
    reached = []
    seen = set()
    stack = list(out_nodes)
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        reached.append(node)
        if node.creator_node is not None:
            stack.extend(node.creator_node.inputs)
    needed = set(input_nodes)
    for node in sorted(reached, key=lambda n: n.rank):
        if node.creator_node is not None and any(x in needed for x in node.creator_node.inputs):
            needed.add(node)
    return needed


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None, set_grad: bool = False,
         retain_grad: bool = False, enable_double_backprop: bool = False, loss_scale=None,
         *, retain_graph: bool | None = None) -> list[Variable | None]:
    """Computes the gradients of ``outputs`` with respect to ``inputs``.

    Unlike :meth:`Variable.backward`, only the gradients of ``inputs`` are computed, and they are
    returned rather than accumulated into ``grad`` (unless ``set_grad``).

    Args:
        outputs (sequence of Variable): the variables to differentiate.
        inputs (sequence of Variable): the variables to differentiate with respect to.
        grad_outputs (sequence of Variable, array or None): initial gradients of the outputs;
            None for a single-element output means 1.
        grad_inputs (sequence of Variable, array or None): gradients added to the results.
        set_grad: also store each result in the input's ``grad_var``.
        retain_grad: store the gradients of intermediate variables in their ``grad_var``.
        enable_double_backprop: record the graph of the computation of the gradients.
        loss_scale: multiply the initial gradients by this factor.
        retain_graph: keep retained arrays for a later backward; defaults to
            ``enable_double_backprop``.

    Returns:
        list of Variable or None: the gradient of each input; None where no path leads from
        the input to the outputs.
    """
    outputs = _as_variable_list('outputs', outputs)
    inputs = _as_variable_list('inputs', inputs)
    grad_outputs = _as_grad_list('grad_outputs', grad_outputs, outputs)
    grad_inputs = _as_grad_list('grad_inputs', grad_inputs, inputs)
    if retain_graph is None:
        retain_graph = enable_double_backprop

    seeds = []
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            if y.size != 1:
                raise ValueError(f'grad: an output has shape {y.shape}; give its grad_outputs '
                                 'entry (only single-element outputs default to 1)')
            gy = Variable(y.xp.ones_like(y.array), requires_grad=False)
        if loss_scale is not None:
            gy = _scaled(gy, loss_scale)
        seeds.append(gy)

    out_nodes = [y.node for y in outputs]
    input_nodes = {x.node for x in inputs}
    needed = _nodes_reaching(out_nodes, input_nodes)
    found = _traverse(out_nodes, seeds, needed.__contains__, retain_grad,
                      enable_double_backprop, retain_graph, capture=input_nodes)
    ret = []
    for x, gin in zip(inputs, grad_inputs):
        g = found.get(x.node)
        if gin is not None:
            g = gin if g is None else _add(g, gin, enable_double_backprop)
        if set_grad:
            x._grad_var = g
        ret.append(g)
    return ret


def _add(a, b, double_backprop):
    if double_backprop:
        from framework.functions.math.basic_math import add
        return add(a, b)
    return Variable(_as_array(a.array + b.array), requires_grad=False)


def _as_array(x):
    """NumPy turns 0-dimensional results into scalars; turn them back into arrays."""
    return numpy.asarray(x) if isinstance(x, numpy.generic) else x


def _scaled(g, loss_scale):
    scaled = g.array.copy()
    scaled *= scaled.dtype.type(loss_scale)
    return Variable(scaled, requires_grad=False)


def _as_variable_list(what, xs):
    if isinstance(xs, Variable):
        raise TypeError(f'grad: {what} must be a sequence of Variables, got a Variable; '
                        'wrap it in a list')
    xs = list(xs)
    for i, x in enumerate(xs):
        if not isinstance(x, Variable):
            raise TypeError(f'grad: {what}[{i}] must be a Variable, got {type(x).__name__}')
    return xs


def _as_grad_list(what, gs, like):
    if gs is None:
        return [None] * len(like)
    gs = list(gs)
    if len(gs) != len(like):
        raise ValueError(f'grad: {what} must have {len(like)} entries, got {len(gs)}')
    return [g if g is None or isinstance(g, Variable) else Variable(g, requires_grad=False)
            for g in gs]

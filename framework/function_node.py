"""FunctionNode: a differentiable operation and its place in the graph.

An op subclasses :class:`FunctionNode`, computes its outputs from arrays in :meth:`forward`,
declares there what its backward pass needs with :meth:`retain_inputs` and
:meth:`retain_outputs`, and computes gradients from Variables in :meth:`backward` with other
differentiable functions, so that the backward pass can itself be differentiated.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence

import numpy

from framework import backend
from framework.config import config
from framework.variable import Variable, VariableNode

# The active recorders of applied functions, innermost last (framework.graph.trace pushes one).
# A recorder has ``thread``, the ident of the thread whose applications it records, ``depth``,
# the number of forwards running (only the outermost applications are recorded), and
# ``record(node, input_variables, output_variables)``.
tracers: list = []


def tracer_of_this_thread():
    """The innermost recorder of this thread's applications, or None."""
    ident = threading.get_ident()
    for tracer in reversed(tracers):
        if tracer.thread == ident:
            return tracer
    return None


class FunctionNode:
    """A differentiable function of arrays.

    Attributes:
        inputs (tuple of VariableNode): the input nodes, set when the graph is recorded.
        outputs (tuple of weakref to VariableNode): the output nodes.
        rank (int): the largest rank among the inputs.
    """

    inputs: tuple[VariableNode, ...] | None = None
    outputs: tuple[weakref.ref, ...] | None = None
    rank = 0
    _input_indexes_to_retain: tuple[int, ...] | None = None
    _output_indexes_to_retain: tuple[int, ...] | None = None
    _retained_input_data = None
    _retained_output_data = None
    _released = False

    @property
    def label(self) -> str:
        """The name of the function, shown in error messages and graphs."""
        return type(self).__name__

    def __repr__(self):
        return f'<{self.label}>'

    # --- application ---------------------------------------------------------------------

    def apply(self, inputs: Sequence) -> tuple[Variable, ...]:
        """Computes the outputs and, when backprop is enabled, records this node in the graph.

        Args:
            inputs: Variables or arrays, all on one device.

        Returns:
            tuple of Variable: the outputs.
        """
        # This runs for every operation: list comprehensions, no generator expressions.
        input_vars = [x if isinstance(x, Variable) else _as_input_variable(self, i, x)
                      for i, x in enumerate(inputs)]
        in_data = tuple([x._array for x in input_vars])
        device = backend.same_device(self.label, in_data)
        if config.type_check:
            self.check_type_forward(in_data)
        requires_grad = any([x._requires_grad for x in input_vars])

        self._input_indexes_to_retain = None
        self._output_indexes_to_retain = None
        tracer = tracer_of_this_thread() if tracers else None
        if tracer is not None:
            tracer.depth += 1
        outputs = self.forward(in_data)
        if tracer is not None:
            tracer.depth -= 1
        if not isinstance(outputs, tuple):
            raise TypeError(f'{self.label}.forward must return a tuple of arrays, '
                            f'got {type(outputs).__name__}')
        outputs = tuple([_force_array(self, y, device) for y in outputs])
        if config.debug:
            _check_nan(self, outputs)

        if not (requires_grad and config.enable_backprop):
            ret = tuple([Variable(y, requires_grad=requires_grad) for y in outputs])
            if tracer is not None and tracer.depth == 0:
                tracer.record(self, input_vars, ret)
            return ret

        self.rank = max([x._node.rank for x in input_vars], default=0)
        self.inputs = tuple([x._node for x in input_vars])
        ret = tuple([Variable(y, requires_grad=True) for y in outputs])
        for y in ret:
            y._node.set_creator_node(self)
        self.outputs = tuple([weakref.ref(y._node) for y in ret])
        if self._input_indexes_to_retain is not None:
            self._retained_input_data = tuple([in_data[i]
                                               for i in self._input_indexes_to_retain])
        if self._output_indexes_to_retain is not None:
            self._retained_output_data = tuple([outputs[i]
                                                for i in self._output_indexes_to_retain])
        if tracer is not None and tracer.depth == 0:
            tracer.record(self, input_vars, ret)
        return ret

    def check_type_forward(self, in_data: tuple) -> None:
        """Checks the input arrays; raise TypeError or ValueError naming the argument.

        Skipped when ``config.type_check`` is False. The default checks nothing.
        """

    def forward(self, inputs: tuple) -> tuple:
        """Computes the output arrays from the input arrays (any array module, via ``xp``)."""
        raise NotImplementedError(f'{self.label} does not implement forward')

    def backward(self, target_input_indexes: tuple[int, ...],
                 grad_outputs: tuple[Variable | None, ...]) -> tuple[Variable | None, ...]:
        """Computes the gradients of the inputs listed in ``target_input_indexes``.

        Args:
            target_input_indexes: sorted indexes of the inputs whose gradients are needed.
            grad_outputs: the gradient of each output as a Variable, or None where an output
                has no gradient.

        Returns:
            The gradients (Variables or None) of the target inputs, in order; a tuple as long
            as all inputs is accepted too.
        """
        raise NotImplementedError(f'{self.label} does not implement backward')

    # --- retention -----------------------------------------------------------------------

    def retain_inputs(self, indexes: Sequence[int]) -> None:
        """Declares, inside :meth:`forward`, the inputs that :meth:`backward` will read."""
        self._input_indexes_to_retain = tuple(indexes)

    def retain_outputs(self, indexes: Sequence[int]) -> None:
        """Declares, inside :meth:`forward`, the outputs that :meth:`backward` will read."""
        self._output_indexes_to_retain = tuple(indexes)

    def get_retained_inputs(self) -> tuple[Variable, ...]:
        """Returns the retained inputs as Variables that stand for the input nodes."""
        if self._input_indexes_to_retain is None or self.inputs is None:
            return ()
        self._check_not_released()
        ret = []
        for index, data in zip(self._input_indexes_to_retain, self._retained_input_data):
            node = self.inputs[index]
            var = node.get_variable_or_none()
            if var is None or var._array is not data:
                var = Variable._of_node(data, node)
            ret.append(var)
        return tuple(ret)

    def get_retained_outputs(self) -> tuple[Variable, ...]:
        """Returns the retained outputs as Variables that stand for the output nodes.

        An output node that has been garbage-collected is made anew, with this function as its
        creator, so that a double backprop through it reaches this function.
        """
        if self._output_indexes_to_retain is None or self.outputs is None:
            return ()
        self._check_not_released()
        ret = []
        outputs = list(self.outputs)
        for index, data in zip(self._output_indexes_to_retain, self._retained_output_data):
            node = outputs[index]()
            if node is None:
                var = Variable(data, requires_grad=True)
                var._node.set_creator_node(self)
                outputs[index] = weakref.ref(var._node)
            else:
                var = node.get_variable_or_none()
                if var is None or var._array is not data:
                    var = Variable._of_node(data, node)
            ret.append(var)
        self.outputs = tuple(outputs)
        return tuple(ret)

    # --- releasing the graph -------------------------------------------------------------

    def release_retained(self) -> None:
        """Frees the arrays retained for backward; the node cannot be differentiated again."""
        if self._retained_input_data is not None or self._retained_output_data is not None:
            self._retained_input_data = None
            self._retained_output_data = None
            self._released = True

    def _check_not_released(self):
        if self._released:
            raise RuntimeError(
                f'{self.label}: backward through this function a second time, but the arrays '
                'it retained were freed after the first backward. Pass retain_graph=True to the '
                'first backward() or grad() to differentiate the graph more than once.')

    def unchain(self) -> None:
        """Purges the references to the inputs and the outputs' references to this node."""
        for ref in self.outputs or ():
            node = ref()
            if node is not None and node.creator_node is self:
                node.unchain()
        self.inputs = None
        self._retained_input_data = None
        self._retained_output_data = None


def _as_input_variable(func, index, x):
    if not backend.is_array(x):
        raise TypeError(f'{func.label}: input {index} must be a Variable or an array, '
                        f'got {type(x).__name__}')
    return Variable(x, requires_grad=False)


def _force_array(func, y, device):
    if type(y) is numpy.ndarray:
        return y
    if isinstance(y, numpy.generic):
        y = device.xp.asarray(y)
    if not backend.is_array(y):
        raise TypeError(f'{func.label}.forward returned {type(y).__name__}, not an array')
    return y


def _check_nan(func, outputs):
    for i, y in enumerate(outputs):
        xp = backend.get_array_module(y)
        if y.dtype.kind == 'f' and bool(xp.isnan(y).any()):
            raise RuntimeError(f'{func.label}: output {i} contains NaN (config.debug is on)')

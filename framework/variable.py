"""Variables: what user code holds (:class:`Variable`) and what the graph holds
(:class:`VariableNode`).

A :class:`Variable` owns its array and its gradient. Its :class:`VariableNode` is the vertex of
the computational graph: it knows the function that created it and holds no array, so the graph
keeps an array alive only while a function retains it for its backward pass (Chainer's design,
section 4.1 of its paper). Dropping the last user reference to a Variable frees its memory.
"""

from __future__ import annotations

import copy
import weakref

import numpy

from framework import backend


class VariableNode:
    """The graph-side vertex of a :class:`Variable`.

    Attributes:
        creator_node (FunctionNode or None): the function that produced the variable.
        rank (int): the generation: 0 for a leaf, one more than the creator's rank otherwise.
        requires_grad (bool): whether gradients flow into this vertex.
        name (str or None): the variable's name.
        shape, dtype: those of the variable's array when the node was made.
    """

    __slots__ = ('_variable', 'creator_node', 'rank', 'requires_grad', 'name', 'shape',
                 'dtype', '__weakref__')

    def __init__(self, variable: Variable, name: str | None):
        self._variable = weakref.ref(variable)
        self.creator_node = None
        self.rank = 0
        self.requires_grad = variable._requires_grad
        self.name = name
        array = variable._array
        self.shape = None if array is None else array.shape
        self.dtype = None if array is None else array.dtype

    @property
    def creator(self):
        """The function that created this node (alias of :attr:`creator_node`)."""
        return self.creator_node

    def set_creator_node(self, creator_node) -> None:
        """Makes ``creator_node`` the creator of this node and sets the rank after it."""
        self.creator_node = creator_node
        self.rank = creator_node.rank + 1

    def get_variable_or_none(self) -> Variable | None:
        """Returns the Variable of this node if user code (or the graph) still holds it."""
        return self._variable()

    @property
    def label(self) -> str:
        """A short description: shape and dtype."""
        if self.shape is None:
            return 'None'
        return f'({", ".join(map(str, self.shape))}), {self.dtype}'

    def unchain(self) -> None:
        """Forgets the creator: this node becomes a leaf."""
        self.creator_node = None

    def __repr__(self):
        return f'<VariableNode {self.name or ""} {self.label}>'


def _check_array(array, what):
    if array is not None and not backend.is_array(array):
        raise TypeError(f'Variable: {what} must be an array of a device (numpy.ndarray, '
                        f'cupy.ndarray, ...) or None, got {type(array).__name__}')


class Variable:
    """An array with a gradient and a place in the computational graph.

    Args:
        data (array or None): the initial array.
        name (str): a name, shown in ``repr`` and error messages.
        grad (array or None): the initial gradient.
        requires_grad (bool): whether gradients are computed for this variable.
    """

    __array_priority__ = 200

    def __init__(self, data=None, *, name: str | None = None, grad=None,
                 requires_grad: bool = True):
        _check_array(data, 'data')
        _check_array(grad, 'grad')
        self._array = data
        self._requires_grad = bool(requires_grad)
        self._node = VariableNode(self, name)
        self._grad_var = None if grad is None else Variable(grad, requires_grad=False)
        self._loss_scale = None

    @classmethod
    def _of_node(cls, array, node: VariableNode) -> Variable:
        """A Variable that stands for an existing node (used for retained arrays)."""
        var = cls.__new__(cls)
        var._array = array
        var._requires_grad = node.requires_grad
        var._node = node
        var._grad_var = None
        var._loss_scale = None
        if node._variable() is None:
            node._variable = weakref.ref(var)
        return var

    # --- the array and its description ---------------------------------------------------

    @property
    def array(self):
        """The underlying array."""
        return self._array

    @array.setter
    def array(self, array):
        _check_array(array, 'array')
        self._array = array
        self._node.shape = None if array is None else array.shape
        self._node.dtype = None if array is None else array.dtype

    data = array

    @property
    def shape(self):
        return self._array.shape

    @property
    def dtype(self):
        return self._array.dtype

    @property
    def ndim(self):
        return self._array.ndim

    @property
    def size(self):
        return self._array.size

    @property
    def xp(self):
        """The array module of the data."""
        return backend.get_array_module(self._array)

    @property
    def device(self) -> backend.Device:
        """The device the data lives on."""
        return backend.get_device_from_array(self._array)

    @property
    def name(self):
        return self._node.name

    @name.setter
    def name(self, name):
        self._node.name = name

    @property
    def label(self) -> str:
        return self._node.label

    def item(self):
        """Returns the single element of the array as a Python scalar."""
        return self._array.item()

    def __len__(self):
        if self._array.ndim == 0:
            raise TypeError('len() of a 0-dimensional Variable')
        return self._array.shape[0]

    def __repr__(self):
        if self._array is None:
            return 'variable(None)'
        body = numpy.array2string(backend.to_cpu(self._array), separator=', ',
                                  prefix='variable(')
        name = f', name={self.name!r}' if self.name else ''
        return f'variable({body}{name})'

    def __str__(self):
        if self._array is None:
            return 'variable(None)'
        body = numpy.array2string(backend.to_cpu(self._array), prefix='variable(')
        return f'variable({body})'

    # --- the graph -----------------------------------------------------------------------

    @property
    def node(self) -> VariableNode:
        """The graph-side node of this variable."""
        return self._node

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @property
    def creator_node(self):
        """The :class:`FunctionNode` that created this variable, or None for a leaf."""
        return self._node.creator_node

    @creator_node.setter
    def creator_node(self, func):
        self._node.set_creator_node(func)

    creator = creator_node

    @property
    def rank(self) -> int:
        return self._node.rank

    def unchain(self) -> None:
        """Forgets the creator: this variable becomes a leaf of any later graph."""
        self._node.unchain()

    def unchain_backward(self) -> None:
        """Deletes every reference to the graph behind this variable, freeing retained arrays."""
        seen = set()
        stack = []
        creator = self.creator_node
        if creator is not None:
            stack.append(creator)
            seen.add(creator)
        while stack:
            func = stack.pop()
            for x in func.inputs or ():
                if x.creator_node is not None and x.creator_node not in seen:
                    seen.add(x.creator_node)
                    stack.append(x.creator_node)
            func.unchain()

    # --- gradients -----------------------------------------------------------------------

    @property
    def grad(self):
        """The gradient array, or None."""
        return None if self._grad_var is None else self._grad_var.array

    @grad.setter
    def grad(self, g):
        self.grad_var = None if g is None else Variable(g, requires_grad=False)

    @property
    def grad_var(self) -> Variable | None:
        """The gradient as a Variable (it has a graph after a double-backprop backward)."""
        return self._grad_var

    @grad_var.setter
    def grad_var(self, g: Variable | None):
        if g is not None:
            _check_gradient(self, g.array, 'grad')
        self._grad_var = g

    def addgrad(self, var: Variable) -> None:
        """Adds the gradient of ``var`` (from any device) to this variable's gradient."""
        if var.grad is None:
            return
        g = backend.get_device_from_array(self._array).send(var.grad)
        if self._grad_var is None:
            self.grad = g.copy()
        else:
            self._grad_var.array += g

    def copydata(self, var: Variable) -> None:
        """Copies the array of ``var`` (from any device) into this variable's array, in place."""
        src = backend.get_device_from_array(self._array).send(var.array)
        if src.shape != self._array.shape:
            raise ValueError(f'copydata: the source has shape {src.shape}, but this variable '
                             f'has shape {self._array.shape}')
        self._array[...] = src

    def cleargrad(self) -> None:
        """Sets the gradient to None (the next backward writes a fresh one)."""
        self._grad_var = None

    def zerograd(self) -> None:
        """Sets the gradient to zeros of the data's shape and dtype."""
        self._grad_var = Variable(self.xp.zeros_like(self._array), requires_grad=False)

    def backward(self, retain_grad: bool = False, enable_double_backprop: bool = False,
                 loss_scale: float | None = None, *, retain_graph: bool | None = None) -> None:
        """Computes the gradients of this variable with respect to every variable behind it.

        Gradients of leaves that require them are accumulated into their ``grad``. Without an
        explicit ``grad`` this variable must have one element; its gradient is then 1.

        Args:
            retain_grad: keep the gradients of intermediate variables too.
            enable_double_backprop: record the graph of the backward computation, so that the
                gradients can themselves be differentiated.
            loss_scale: multiply the initial gradient by this factor (for float16 training);
                leaves remember it so optimizers can divide it out.
            retain_graph: keep the arrays that functions retained for backward, so that the
                graph can be differentiated again. By default it is released as the backward
                pass goes (each function's retained arrays are freed once its gradients are
                computed), unless ``enable_double_backprop`` is set.
        """
        from framework import _backprop
        _backprop.backward(self, retain_grad, enable_double_backprop, loss_scale, retain_graph)

    # --- devices -------------------------------------------------------------------------

    def to_device(self, device) -> Variable:
        """Moves the data and the gradient to ``device`` in place; returns self."""
        device = backend.get_device(device)
        if self._array is not None:
            self.array = device.send(self._array)
        if self._grad_var is not None:
            self._grad_var.to_device(device)
        return self

    def to_cpu(self) -> Variable:
        return self.to_device(backend.CpuDevice())

    def to_gpu(self, device: int | None = None) -> Variable:
        backend.to_gpu(self, device)
        return self

    # --- operators (implemented by framework.functions) ----------------------------------

    def reshape(self, *shape) -> Variable:
        from framework.functions.array.reshape import reshape
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return reshape(self, shape)

    def transpose(self, *axes) -> Variable:
        from framework.functions.array.transpose import transpose
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)) or axes == (None,):
            axes = axes[0]
        return transpose(self, axes or None)

    @property
    def T(self) -> Variable:
        from framework.functions.array.transpose import transpose
        return transpose(self)

    def __getitem__(self, slices) -> Variable:
        from framework.functions.array.get_item import get_item
        return get_item(self, slices)

    def __neg__(self):
        from framework.functions.math import basic_math
        return basic_math.neg(self)

    def __abs__(self):
        from framework.functions.math import basic_math
        return basic_math.absolute(self)

    def __add__(self, other):
        from framework.functions.math import basic_math
        return basic_math.add(self, other)

    def __radd__(self, other):
        from framework.functions.math import basic_math
        return basic_math.add(other, self)

    def __sub__(self, other):
        from framework.functions.math import basic_math
        return basic_math.sub(self, other)

    def __rsub__(self, other):
        from framework.functions.math import basic_math
        return basic_math.sub(other, self)

    def __mul__(self, other):
        from framework.functions.math import basic_math
        return basic_math.mul(self, other)

    def __rmul__(self, other):
        from framework.functions.math import basic_math
        return basic_math.mul(other, self)

    def __truediv__(self, other):
        from framework.functions.math import basic_math
        return basic_math.div(self, other)

    def __rtruediv__(self, other):
        from framework.functions.math import basic_math
        return basic_math.div(other, self)

    def __pow__(self, other):
        from framework.functions.math import basic_math
        return basic_math.pow(self, other)

    def __rpow__(self, other):
        from framework.functions.math import basic_math
        return basic_math.pow(other, self)

    def __matmul__(self, other):
        from framework.functions.math.matmul import matmul
        return matmul(self, other)

    def __rmatmul__(self, other):
        from framework.functions.math.matmul import matmul
        return matmul(other, self)

    __hash__ = object.__hash__

    # --- copies --------------------------------------------------------------------------

    def __copy__(self) -> Variable:
        """A variable sharing this one's array and gradient, with a graph node of its own."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._node = VariableNode(new, self.name)
        return new

    def __deepcopy__(self, memo) -> Variable:
        """A variable with copies of the array and gradient and a graph node of its own."""
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            if key != '_node':
                new.__dict__[key] = copy.deepcopy(value, memo)
        new._node = VariableNode(new, self.name)
        return new

    def __getstate__(self):
        state = dict(self.__dict__)
        state['_name'] = state.pop('_node').name
        return state

    def __setstate__(self, state):
        name = state.pop('_name')
        self.__dict__.update(state)
        self._node = VariableNode(self, name)


def _check_gradient(var: Variable, g, what: str) -> None:
    x = var.array
    if x is None or g is None:
        return
    if g.shape != x.shape:
        raise ValueError(f'{what} of variable {var.name or ""} must have shape {x.shape}, '
                         f'got {g.shape}')
    if g.dtype != x.dtype:
        raise TypeError(f'{what} of variable {var.name or ""} must have dtype {x.dtype}, '
                        f'got {g.dtype}')
    if backend.get_device_from_array(g) != backend.get_device_from_array(x):
        raise ValueError(f'{what} of variable {var.name or ""} must be on '
                         f'{backend.get_device_from_array(x)}, got one on '
                         f'{backend.get_device_from_array(g)}')


def as_variable(obj) -> Variable:
    """Returns ``obj`` if it is a Variable, else a Variable of it that requires no gradient."""
    if isinstance(obj, Variable):
        return obj
    return Variable(obj, requires_grad=False)


def as_array(obj):
    """Returns the array of a Variable, or ``obj`` itself."""
    return obj.array if isinstance(obj, Variable) else obj

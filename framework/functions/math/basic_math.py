"""Arithmetic: add, sub, mul, div, pow, neg, absolute; also behind Variable's operators.

Two array operands broadcast against each other as in NumPy and must share a dtype. A Python
or NumPy scalar operand is a constant cast to the other operand's dtype, so ``x * 2.0`` keeps
``x``'s precision. As in Chainer, ``add``, ``sub``, ``neg`` and the product of an array with a
scalar accept integer arrays too; ``mul``, ``div`` and ``pow`` of two arrays, a scalar divided by
or raised to an array, an array raised to a scalar, and ``absolute`` need floating-point ones.
"""

from __future__ import annotations

import numbers

import numpy

from framework import backend
from framework.function_node import FunctionNode
from framework.functions.math.sum import sum_to
from framework.utils import type_check
from framework.variable import Variable, as_array, as_variable


def _is_constant(x) -> bool:
    return isinstance(x, (numbers.Number, numpy.generic))


def _check_operand(fname, name, x):
    if not isinstance(x, Variable) and not backend.is_array(x):
        raise TypeError(f'{fname}: {name} must be a Variable, an array or a scalar, '
                        f'but got {type(x).__name__}')


def _check_float(fname, name, x):
    _check_operand(fname, name, x)
    type_check.expect_dtype_kind(fname, name, as_array(x), 'f')


def _check_pair(fname, lhs, rhs, float_only=False):
    """Checks two array operands and returns them, a plain array cast to the other's dtype.

    As in Chainer, an array (not a Variable) operand is a constant that takes the dtype of the
    other operand; two Variables must share their dtype.
    """
    _check_operand(fname, 'lhs', lhs)
    _check_operand(fname, 'rhs', rhs)
    if not isinstance(rhs, Variable):
        rhs = rhs.astype(as_array(lhs).dtype, copy=False)
    elif not isinstance(lhs, Variable):
        lhs = lhs.astype(rhs.dtype, copy=False)
    a, b = as_array(lhs), as_array(rhs)
    if float_only:
        type_check.expect_dtype_kind(fname, 'lhs', a, 'f')
    type_check.expect_same_dtype(fname, ('lhs', 'rhs'), (a, b))
    type_check.expect_broadcastable(fname, ('lhs', 'rhs'), (a, b))
    return lhs, rhs


def _const(value, like):
    """``value`` as a scalar of ``like``'s dtype."""
    return as_array(like).dtype.type(value)


class Add(FunctionNode):

    def forward(self, inputs):
        y = inputs[0] + inputs[1]
        for x in inputs[2:]:
            y = y + x
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(sum_to(gy, self.inputs[i].shape) for i in indexes)


class AddConstant(FunctionNode):

    def __init__(self, value):
        self.value = value

    def forward(self, inputs):
        return inputs[0] + self.value,

    def backward(self, indexes, grad_outputs):
        return grad_outputs


class Sub(FunctionNode):

    def forward(self, inputs):
        return inputs[0] - inputs[1],

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(sum_to(gy if i == 0 else -gy, self.inputs[i].shape) for i in indexes)


class SubFromConstant(FunctionNode):

    def __init__(self, value):
        self.value = value

    def forward(self, inputs):
        return self.value - inputs[0],

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


class Mul(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return inputs[0] * inputs[1],

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        other = {0: x1, 1: x0}
        return tuple(sum_to(gy * other[i], self.inputs[i].shape) for i in indexes)


class MulConstant(FunctionNode):

    def __init__(self, value):
        self.value = value

    def forward(self, inputs):
        return inputs[0] * self.value,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.value,


class Div(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return inputs[0] / inputs[1],

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        gx0 = gy / x1
        ret = []
        if 0 in indexes:
            ret.append(sum_to(gx0, self.inputs[0].shape))
        if 1 in indexes:
            ret.append(sum_to(-gx0 * x0 / x1, self.inputs[1].shape))
        return tuple(ret)


class DivFromConstant(FunctionNode):

    def __init__(self, value):
        self.value = value

    def forward(self, inputs):
        self.retain_inputs((0,))
        return self.value / inputs[0],

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * (-self.value) / (x * x),


class Neg(FunctionNode):

    def forward(self, inputs):
        return -inputs[0],

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],


class Absolute(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0,))
        return abs(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xp = backend.get_array_module(x)
        return grad_outputs[0] * xp.sign(x.array),


class Pow(FunctionNode):

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        return inputs[0] ** inputs[1],

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(sum_to(gy * x1 * x0 ** (x1 - 1), self.inputs[0].shape))
        if 1 in indexes:
            from framework.functions.math.exponential import log
            ret.append(sum_to(gy * y * log(x0), self.inputs[1].shape))
        return tuple(ret)


class PowVarConst(FunctionNode):

    def __init__(self, value):
        self.value = value

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] ** self.value,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        c = self.value
        if c == 1:
            return gy,
        if c == 2:
            return gy * (x * c),
        return gy * (x ** (c - 1) * c),


class PowConstVar(FunctionNode):

    def __init__(self, value):
        self.value = value

    def forward(self, inputs):
        self.retain_outputs((0,))
        return self.value ** inputs[0],

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y * y.dtype.type(numpy.log(self.value)),


def add(*xs) -> Variable:
    """Element-wise sum of the inputs, broadcast together.

    Args:
        xs: Variables or arrays of one dtype; in a pair, one may be a scalar, and an array
            paired with a Variable is cast to the Variable's dtype.

    Returns:
        Variable: ``xs[0] + xs[1] + ...``.
    """
    if not xs:
        raise ValueError('add: at least one input is needed')
    if len(xs) == 1:
        _check_operand('add', 'xs[0]', xs[0])
        return as_variable(xs[0])
    if len(xs) == 2:
        lhs, rhs = xs
        if _is_constant(rhs):
            _check_operand('add', 'lhs', lhs)
            return AddConstant(_const(rhs, lhs)).apply((lhs,))[0]
        if _is_constant(lhs):
            _check_operand('add', 'rhs', rhs)
            return AddConstant(_const(lhs, rhs)).apply((rhs,))[0]
        lhs, rhs = _check_pair('add', lhs, rhs)
        return Add().apply((lhs, rhs))[0]
    for i, x in enumerate(xs):
        if not isinstance(x, Variable) and not backend.is_array(x):
            raise TypeError(f'add: xs[{i}] must be a Variable or an array, '
                            f'but got {type(x).__name__}')
    arrays = [as_array(x) for x in xs]
    names = [f'xs[{i}]' for i in range(len(xs))]
    type_check.expect_same_dtype('add', names, arrays)
    type_check.expect_broadcastable('add', names, arrays)
    return Add().apply(xs)[0]


def sub(lhs, rhs) -> Variable:
    """Element-wise difference ``lhs - rhs``, broadcast; either side may be a scalar."""
    if _is_constant(rhs):
        _check_operand('sub', 'lhs', lhs)
        return AddConstant(_const(-rhs, lhs)).apply((lhs,))[0]
    if _is_constant(lhs):
        _check_operand('sub', 'rhs', rhs)
        return SubFromConstant(_const(lhs, rhs)).apply((rhs,))[0]
    lhs, rhs = _check_pair('sub', lhs, rhs)
    return Sub().apply((lhs, rhs))[0]


def mul(lhs, rhs) -> Variable:
    """Element-wise product ``lhs * rhs``, broadcast; either side may be a scalar."""
    if _is_constant(rhs):
        _check_operand('mul', 'lhs', lhs)
        return MulConstant(_const(rhs, lhs)).apply((lhs,))[0]
    if _is_constant(lhs):
        _check_operand('mul', 'rhs', rhs)
        return MulConstant(_const(lhs, rhs)).apply((rhs,))[0]
    lhs, rhs = _check_pair('mul', lhs, rhs, float_only=True)
    return Mul().apply((lhs, rhs))[0]


def div(lhs, rhs) -> Variable:
    """Element-wise quotient ``lhs / rhs``, broadcast; either side may be a scalar."""
    if _is_constant(rhs):
        _check_operand('div', 'lhs', lhs)
        return MulConstant(_const(1.0 / rhs, lhs)).apply((lhs,))[0]
    if _is_constant(lhs):
        _check_float('div', 'rhs', rhs)
        return DivFromConstant(_const(lhs, rhs)).apply((rhs,))[0]
    lhs, rhs = _check_pair('div', lhs, rhs, float_only=True)
    return Div().apply((lhs, rhs))[0]


def pow(lhs, rhs) -> Variable:
    """Element-wise power ``lhs ** rhs``, broadcast; either side may be a scalar."""
    if _is_constant(rhs):
        _check_float('pow', 'lhs', lhs)
        return PowVarConst(_const(rhs, lhs)).apply((lhs,))[0]
    if _is_constant(lhs):
        _check_float('pow', 'rhs', rhs)
        return PowConstVar(_const(lhs, rhs)).apply((rhs,))[0]
    lhs, rhs = _check_pair('pow', lhs, rhs, float_only=True)
    return Pow().apply((lhs, rhs))[0]


def neg(x) -> Variable:
    """Element-wise negation ``-x``."""
    _check_operand('neg', 'x', x)
    return Neg().apply((x,))[0]


def absolute(x) -> Variable:
    """Element-wise absolute value; its gradient at 0 is 0."""
    _check_float('absolute', 'x', x)
    return Absolute().apply((x,))[0]

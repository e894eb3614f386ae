import functools
import operator

import numpy
import pytest

import framework.functions as F
from framework import Variable, grad
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

_BINARY = {'add': operator.add, 'sub': operator.sub, 'mul': operator.mul,
           'div': operator.truediv, 'pow': operator.pow}
_SHAPES = [((3, 2), (3, 2)), ((3, 2), (2,)), ((), (2, 1))]


def _uniform(shape, dtype, low=-1.0, high=1.0):
    return numpy.asarray(numpy.random.uniform(low, high, shape), dtype)


def _away_from_zero(shape, dtype):
    """Values of random sign with magnitudes in [0.5, 2]."""
    sign = numpy.random.choice([-1.0, 1.0], shape)
    return numpy.asarray(sign * numpy.random.uniform(0.5, 2.0, shape), dtype)


def _operands(op, shapes, dtype):
    """Operands of ``lhs op rhs`` where its derivatives are well defined."""
    lhs_shape, rhs_shape = shapes
    if op == 'div':
        return _uniform(lhs_shape, dtype), _away_from_zero(rhs_shape, dtype)
    if op == 'pow':
        return _uniform(lhs_shape, dtype, 0.5, 2.0), _uniform(rhs_shape, dtype)
    return _uniform(lhs_shape, dtype), _uniform(rhs_shape, dtype)


class TestBinary(FunctionTestCase):
    """add, sub, mul, div and pow of two inputs, broadcast, as functions and as operators."""

    params = (product({'op': list(_BINARY), 'form': ['function'], 'shapes': _SHAPES,
                       'dtype': FLOAT_DTYPES})
              + product({'op': list(_BINARY), 'form': ['operator'], 'shapes': _SHAPES[1:2],
                         'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        return _operands(self.op, self.shapes, self.dtype)

    def forward(self, inputs, device):
        if self.form == 'function':
            return getattr(F, self.op)(*inputs),
        return _BINARY[self.op](*inputs),

    def forward_expected(self, inputs):
        return _BINARY[self.op](*inputs),


class TestAddMany(FunctionTestCase):
    params = product({'shapes': [((3, 2),) * 3, ((3, 2), (2,), (1, 2), (3, 1))],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return tuple(_uniform(s, self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return F.add(*inputs),

    def forward_expected(self, inputs):
        return functools.reduce(operator.add, inputs),


class TestArrayOnTheLeft(FunctionTestCase):
    """``array op variable``: NumPy defers to the Variable's reflected operator."""

    params = product({'op': list(_BINARY), 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        self.lhs, rhs = _operands(self.op, ((3, 2), (2,)), self.dtype)
        return rhs,

    def forward(self, inputs, device):
        x, = inputs  # the gradient check runs the function in float64 too
        return _BINARY[self.op](device.send(self.lhs.astype(x.dtype)), x),

    def forward_expected(self, inputs):
        return _BINARY[self.op](self.lhs, inputs[0]),


# op: (expression of a Variable x and a scalar c, the function and whether c comes first)
_SCALAR_OPS = {
    'x + c': (lambda x, c: x + c, F.add, False),
    'c + x': (lambda x, c: c + x, F.add, True),
    'x - c': (lambda x, c: x - c, F.sub, False),
    'c - x': (lambda x, c: c - x, F.sub, True),
    'x * c': (lambda x, c: x * c, F.mul, False),
    'c * x': (lambda x, c: c * x, F.mul, True),
    'x / c': (lambda x, c: x / c, F.div, False),
    'c / x': (lambda x, c: c / x, F.div, True),
    'x ** c': (lambda x, c: x ** c, F.pow, False),
    'c ** x': (lambda x, c: c ** x, F.pow, True),
}


class TestScalarOperand(FunctionTestCase):
    """One operand is a Python or NumPy scalar, on either side."""

    params = (product({'op': list(_SCALAR_OPS), 'value': [2, numpy.float64(0.5)],
                       'form': ['operator'], 'shape': [(3, 2)], 'dtype': FLOAT_DTYPES})
              + product({'op': list(_SCALAR_OPS), 'value': [1.5], 'form': ['function'],
                         'shape': [()], 'dtype': FLOAT_DTYPES}))

    def generate_inputs(self):
        if self.op in ('c / x', 'x ** c'):
            return _uniform(self.shape, self.dtype, 0.5, 2.0),
        return _uniform(self.shape, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        expression, function, constant_first = _SCALAR_OPS[self.op]
        if self.form == 'operator':
            return expression(x, self.value),
        return function(*((self.value, x) if constant_first else (x, self.value))),

    def forward_expected(self, inputs):
        x, = inputs
        return _SCALAR_OPS[self.op][0](x, x.dtype.type(self.value)),


class TestNeg(FunctionTestCase):
    params = product({'form': ['function', 'operator'], 'shape': [(3, 2), ()],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform(self.shape, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return (F.neg(x) if self.form == 'function' else -x),

    def forward_expected(self, inputs):
        return numpy.negative(inputs[0]),


class TestAbsolute(FunctionTestCase):
    params = product({'form': ['function', 'operator'], 'shape': [(3, 2), ()],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _away_from_zero(self.shape, self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return (F.absolute(x) if self.form == 'function' else abs(x)),

    def forward_expected(self, inputs):
        return numpy.fabs(inputs[0]),


class TestAbsoluteAtZero(FunctionTestCase):
    """The gradient of absolute at 0 is 0, as in Chainer."""

    params = product({'dtype': FLOAT_DTYPES})
    skip_backward_test = True  # 0 is a kink: no numerical derivative there
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([-1.5, 0.0, 2.0, -0.0], self.dtype),

    def forward(self, inputs, device):
        return F.absolute(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.array([1.5, 0.0, 2.0, 0.0], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        return gy * numpy.array([-1, 0, 1, 0], self.dtype),


def test_pow_gradient_values():
    x = Variable(numpy.array([0.5, 2.0], numpy.float64))
    y = Variable(numpy.array([3.0, -1.0], numpy.float64))
    gx, gy = grad([x ** y], [x, y], [numpy.ones(2)])
    numpy.testing.assert_allclose(gx.array, [3 * 0.25, -1 / 4.0])
    numpy.testing.assert_allclose(gy.array, [0.125 * numpy.log(0.5), 0.5 * numpy.log(2.0)])
    gx, = grad([3.0 ** x], [x], [numpy.ones(2)])
    numpy.testing.assert_allclose(gx.array, numpy.log(3.0) * 3.0 ** x.array)


_SCALAR_EXPRESSIONS = {
    'x + 1': lambda x: x + 1,
    '2.5 - x': lambda x: 2.5 - x,
    'x * float64(2)': lambda x: x * numpy.float64(2),
    'float64(2) * x': lambda x: numpy.float64(2) * x,
    'x / 3': lambda x: x / 3,
    '3.0 / x': lambda x: 3.0 / x,
    'x ** 2': lambda x: x ** 2,
    'x ** float64(0.5)': lambda x: x ** numpy.float64(0.5),
    '2 ** x': lambda x: 2 ** x,
    'float32(2) ** x': lambda x: numpy.float32(2) ** x,
    'x + int64(1)': lambda x: x + numpy.int64(1),
}


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('expression', list(_SCALAR_EXPRESSIONS))
def test_scalar_keeps_dtype(expression, dtype):
    x = Variable(numpy.array([1.0, 2.0, 4.0], dtype))
    y = _SCALAR_EXPRESSIONS[expression](x)
    assert y.dtype == dtype
    expected = _SCALAR_EXPRESSIONS[expression](x.array.astype(numpy.float64))
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-3)


def test_integer_arrays_where_chainer_accepts_them():
    x = numpy.array([1, 2, 3], numpy.int32)
    for y, expected in [(F.add(x, x), [2, 4, 6]), (F.add(x, x, x), [3, 6, 9]),
                        (F.sub(x, x), [0, 0, 0]), (F.neg(x), [-1, -2, -3]),
                        (Variable(x) + 2, [3, 4, 5]), (10 - Variable(x), [9, 8, 7]),
                        (Variable(x) * 3, [3, 6, 9])]:
        assert y.dtype == numpy.int32
        numpy.testing.assert_array_equal(y.array, expected)


@pytest.mark.parametrize('call, message', [
    (lambda i: F.mul(i, i), 'mul: lhs must be a floating-point array'),
    (lambda i: F.div(i, i), 'div: lhs must be a floating-point array'),
    (lambda i: F.div(2.0, i), 'div: rhs must be a floating-point array'),
    (lambda i: F.pow(i, i), 'pow: lhs must be a floating-point array'),
    (lambda i: F.pow(i, 2.0), 'pow: lhs must be a floating-point array'),
    (lambda i: F.pow(2.0, i), 'pow: rhs must be a floating-point array'),
    (lambda i: F.absolute(i), 'absolute: x must be a floating-point array'),
])
def test_rejects_integer_arrays(call, message):
    with pytest.raises(TypeError, match=message + ', but got dtype int32'):
        call(numpy.array([1, 2], numpy.int32))


def test_add_rejects_mismatched_dtypes():
    with pytest.raises(TypeError, match='add: rhs must have the dtype of lhs'):
        F.add(Variable(numpy.zeros(3, numpy.float32)), Variable(numpy.zeros(3, numpy.float64)))
    with pytest.raises(TypeError, match=r'add: xs\[2\] must have the dtype of xs\[0\] '
                                        r'\(float32\), but got dtype float64'):
        F.add(numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32),
              numpy.zeros(3, numpy.float64))


@pytest.mark.parametrize('name', list(_BINARY))
def test_rejects_shapes_that_do_not_broadcast(name):
    with pytest.raises(ValueError, match=f'{name}: the shapes of the inputs must broadcast '
                                         r'together, but got lhs \(3, 2\), rhs \(3,\)'):
        getattr(F, name)(numpy.ones((3, 2), numpy.float32), numpy.ones(3, numpy.float32))


def test_rejects_operands_that_are_not_arrays():
    x = Variable(numpy.ones(2, numpy.float32))
    with pytest.raises(TypeError, match='add: rhs must be a Variable, an array or a scalar, '
                                        'but got str'):
        x + 'a'
    with pytest.raises(TypeError, match='mul: lhs must be a Variable, an array or a scalar, '
                                        'but got list'):
        F.mul([1.0, 2.0], x)
    with pytest.raises(TypeError, match='neg: x must be a Variable, an array or a scalar, '
                                        'but got list'):
        F.neg([1.0])


def test_a_plain_array_operand_takes_the_variables_dtype():
    x = Variable(numpy.ones(3, numpy.float32))
    for y in (x + numpy.ones(3), numpy.ones(3) + x, x * numpy.full(3, 2.0),
              F.sub(numpy.ones(3), x), F.add(numpy.ones(3, numpy.float32), numpy.ones(3))):
        assert y.dtype == numpy.float32


def test_bool_scalars_are_constants():
    x = Variable(numpy.ones(3, numpy.float32))
    numpy.testing.assert_array_equal((x + True).array, numpy.full(3, 2.0))


def test_add_of_one_input_returns_it():
    x = Variable(numpy.ones(3))
    assert F.add(x) is x
    with pytest.raises(ValueError, match='add: at least one input'):
        F.add()

import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product

# (a shape, b shape, transa, transb)
_CASES = [
    ((2, 5), (5, 3), False, False),
    ((5, 2), (5, 3), True, False),
    ((2, 5), (3, 5), False, True),
    ((5, 2), (3, 5), True, True),
    ((5,), (5,), True, False),
    ((5,), (3, 5), False, True),
    ((5, 2), (5,), True, True),
    ((4, 5, 2), (4, 3, 5), True, True),
    ((1, 2, 5), (1, 5, 3), False, False),
    ((2, 3, 2, 5), (2, 3, 5, 3), False, False),
    ((2, 1, 2, 5), (3, 5, 3), False, False),
    ((4, 2, 5), (5, 3), False, False),
    ((5, 2), (4, 3, 5), True, True),
    ((5,), (4, 5, 3), False, False),
    ((4, 2, 5), (5,), False, False),
]


def _op(x, trans):
    return x.swapaxes(-1, -2) if trans and x.ndim > 1 else x


class TestMatMul(FunctionTestCase):
    params = product({'case': _CASES, 'dtype': FLOAT_DTYPES})

    @property
    def check_forward_options(self):
        return {'atol': 5e-3, 'rtol': 5e-3} if self.dtype == numpy.float16 else {}

    def generate_inputs(self):
        a_shape, b_shape, _, _ = self.case
        return (numpy.random.uniform(0.5, 1, a_shape).astype(self.dtype),
                numpy.random.uniform(0.5, 1, b_shape).astype(self.dtype))

    def forward(self, inputs, device):
        _, _, transa, transb = self.case
        return F.matmul(*inputs, transa=transa, transb=transb),

    def forward_expected(self, inputs):
        a, b = inputs
        _, _, transa, transb = self.case
        y = numpy.matmul(_op(a.astype(numpy.float64), transa), _op(b.astype(numpy.float64),
                                                                   transb))
        return numpy.asarray(y).astype(self.dtype),


class TestMatMulMixedDtypes(FunctionTestCase):
    """The output has the promoted dtype; each gradient its input's dtype, as in Chainer."""

    params = product({'case': [_CASES[1], _CASES[5], _CASES[10]],
                      'dtypes': [(numpy.float16, numpy.float32), (numpy.float64, numpy.float16),
                                 (numpy.float32, numpy.float64)]})

    @property
    def dtype(self):
        return numpy.float16 if numpy.float16 in self.dtypes else numpy.float32

    @property
    def check_forward_options(self):
        return {'atol': 5e-3, 'rtol': 5e-3} if self.dtype == numpy.float16 else {}

    def generate_inputs(self):
        a_shape, b_shape, _, _ = self.case
        return (numpy.random.uniform(0.5, 1, a_shape).astype(self.dtypes[0]),
                numpy.random.uniform(0.5, 1, b_shape).astype(self.dtypes[1]))

    def forward(self, inputs, device):
        _, _, transa, transb = self.case
        return F.matmul(*inputs, transa=transa, transb=transb),

    def forward_expected(self, inputs):
        a, b = inputs
        _, _, transa, transb = self.case
        y = numpy.matmul(_op(a.astype(numpy.float64), transa), _op(b.astype(numpy.float64),
                                                                   transb))
        return numpy.asarray(y).astype(numpy.result_type(*self.dtypes)),


# (a shape, b shape, transa, transb), from Chainer's tests of batch_matmul
_BATCH_CASES = [
    ((2, 3), (2, 3), True, False),
    ((2, 3), (2, 3), False, True),
    ((3, 2, 5), (3, 5, 4), False, False),
    ((3, 5, 2), (3, 4, 5), True, True),
    ((3, 5), (3, 1, 4), False, False),
    ((3, 5), (3, 4, 5), True, True),
    ((3, 2, 5), (3, 5), False, False),
    ((3, 1, 2), (3, 5), True, True),
    ((1, 2, 5), (1, 5, 4), False, False),
]


class TestBatchMatMul(FunctionTestCase):
    params = product({'case': _BATCH_CASES, 'dtype': [numpy.float32, numpy.float64]})

    def generate_inputs(self):
        a_shape, b_shape, _, _ = self.case
        return (numpy.random.uniform(0.5, 1, a_shape).astype(self.dtype),
                numpy.random.uniform(0.5, 1, b_shape).astype(self.dtype))

    def forward(self, inputs, device):
        _, _, transa, transb = self.case
        with pytest.warns(DeprecationWarning, match='batch_matmul is deprecated'):
            return F.batch_matmul(*inputs, transa=transa, transb=transb),

    def forward_expected(self, inputs):
        a, b = (x.reshape(x.shape[:2] + (-1,)) for x in inputs)
        _, _, transa, transb = self.case
        return numpy.einsum('bij,bjk->bik', _op(a, transa), _op(b, transb)),


def test_operator():
    a = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    for y in (Variable(a) @ b, a @ Variable(b), Variable(a) @ Variable(b)):
        assert isinstance(y, Variable)
        numpy.testing.assert_allclose(y.array, a @ b, rtol=1e-6)


@pytest.mark.parametrize('a_shape, b_shape, kwargs, message', [
    ((2, 3), (4, 5), {}, r'matmul: the inner dimensions of a of shape \(2, 3\) \(transa=False\)'
                         r' and b of shape \(4, 5\) \(transb=False\) must agree, but got 3 and 4'),
    ((2, 3), (2, 5), {'transb': True}, 'must agree, but got 3 and 5'),
    ((3,), (4,), {}, 'must agree, but got 3 and 4'),
    ((2, 2, 3), (3, 3, 4), {}, r'matmul: the batch shapes of a \(2,\) and b \(3,\) '),
    ((), (3,), {}, r'matmul: a must have at least 1 dimension, but got shape \(\)'),
])
def test_matmul_rejects_bad_shapes(a_shape, b_shape, kwargs, message):
    with pytest.raises(ValueError, match=message):
        F.matmul(numpy.zeros(a_shape, numpy.float32), numpy.zeros(b_shape, numpy.float32),
                 **kwargs)


def test_matmul_rejects_integer_input():
    with pytest.raises(TypeError, match='matmul: b must be a floating-point array, '
                                        'but got dtype int32'):
        F.matmul(numpy.zeros((2, 3), numpy.float32), numpy.zeros((3, 2), numpy.int32))


@pytest.mark.filterwarnings('ignore:batch_matmul is deprecated:DeprecationWarning')
def test_batch_matmul_rejects_bad_shapes():
    with pytest.raises(ValueError, match=r'batch_matmul: b must be 2- or 3-dimensional, '
                                         r'but got shape \(2, 3, 4, 5\)'):
        F.batch_matmul(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3, 4, 5),
                                                                       numpy.float32))
    with pytest.raises(ValueError, match='batch_matmul: the inner dimensions'):
        F.batch_matmul(numpy.zeros((2, 3, 4), numpy.float32), numpy.zeros((2, 3, 4),
                                                                          numpy.float32))

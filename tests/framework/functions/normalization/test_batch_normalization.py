import warnings

import numpy
import pytest

import framework.functions as F
from framework import Variable
from framework.testing import FLOAT_DTYPES, FunctionTestCase, assert_allclose, devices

# x shape, gamma shape, axis, the axes the statistics are taken over
_CASES = [
    ((5, 3), (3,), None, (0,)),
    ((4, 3, 2, 3), (3,), None, (0, 2, 3)),
    ((2, 3, 4, 2), (3, 4), None, (0, 3)),
    ((3, 4, 5), (5,), (0, 1), (0, 1)),
    ((6, 4), (4,), 0, (0,)),
    ((3, 2, 4), (2,), (0, -1), (0, 2)),
]


def _param_shape(x_shape, axes):
    return tuple(1 if i in axes else s for i, s in enumerate(x_shape))


def _reference(x, gamma, beta, mean, var, eps, axes):
    """gamma * (x - mean) / sqrt(var + eps) + beta in float64, the parameters reshaped."""
    shape = _param_shape(x.shape, axes)
    x, gamma, beta, mean, var = (numpy.asarray(a, numpy.float64) for a in
                                 (x, gamma, beta, mean, var))
    return (gamma.reshape(shape) * (x - mean.reshape(shape)) / numpy.sqrt(var.reshape(shape)
            + eps) + beta.reshape(shape))


def _parameters(shape, dtype):
    gamma = numpy.random.uniform(0.5, 1.5, shape).astype(dtype)
    beta = numpy.random.uniform(-1, 1, shape).astype(dtype)
    return gamma, beta


class _Case(FunctionTestCase):
    """Unpacks a case of _CASES; looser tolerances for float16."""

    def _setup(self, param):
        super()._setup(param)
        self.x_shape, self.gamma_shape, self.axis, self.axes = self.case
        loose = {'atol': 5e-2, 'rtol': 5e-2} if self.dtype == numpy.float16 else {}
        self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3} if loose else {}
        self.check_backward_options = self.check_double_backward_options = loose


class TestBatchNormalization(_Case):
    params = [{'case': c, 'dtype': d} for c in _CASES for d in FLOAT_DTYPES]

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        return (x,) + _parameters(self.gamma_shape, self.dtype)

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.batch_normalization(x, gamma, beta, axis=self.axis),

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        x64 = x.astype(numpy.float64)
        mean = x64.mean(axis=self.axes)
        var = ((x64 - x64.mean(axis=self.axes, keepdims=True)) ** 2).mean(axis=self.axes)
        return _reference(x, gamma, beta, mean, var, 2e-5, self.axes).astype(self.dtype),


class TestFixedBatchNormalization(_Case):
    params = [{'case': c, 'dtype': d, 'eps': e}
              for c in _CASES[:4] for d in FLOAT_DTYPES for e in (2e-5, 0.5)]

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        gamma, beta = _parameters(self.gamma_shape, self.dtype)
        mean = numpy.random.uniform(-0.5, 0.5, self.gamma_shape).astype(self.dtype)
        var = numpy.random.uniform(0.5, 1.5, self.gamma_shape).astype(self.dtype)
        return x, gamma, beta, mean, var

    def forward(self, inputs, device):
        return F.fixed_batch_normalization(*inputs, eps=self.eps, axis=self.axis),

    def forward_expected(self, inputs):
        return _reference(*inputs, self.eps, self.axes).astype(self.dtype),


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_running_statistics_are_updated_in_place(device, dtype):
    x1 = numpy.random.uniform(-1, 3, (4, 3, 2, 5)).astype(dtype)
    x2 = numpy.random.uniform(-2, 1, (4, 3, 2, 5)).astype(dtype)
    gamma, beta = _parameters((3,), dtype)
    running_mean = device.send(numpy.full(3, 0.5, dtype))
    running_var = device.send(numpy.full(3, 2.0, dtype))
    mean_id, var_id = id(running_mean), id(running_var)
    expected_mean, expected_var = numpy.full(3, 0.5), numpy.full(3, 2.0)
    for x in (x1, x2):
        F.batch_normalization(device.send(x), device.send(gamma), device.send(beta),
                              running_mean=running_mean, running_var=running_var, decay=0.7)
        x64 = x.astype(numpy.float64)
        m = x.size // 3
        expected_mean = 0.7 * expected_mean + 0.3 * x64.mean(axis=(0, 2, 3))
        expected_var = 0.7 * expected_var + 0.3 * x64.var(axis=(0, 2, 3)) * m / (m - 1)
    assert id(running_mean) == mean_id and id(running_var) == var_id
    tolerance = {'atol': 2e-3, 'rtol': 2e-3} if dtype == numpy.float16 else {}
    assert_allclose(running_mean, expected_mean, **tolerance)
    assert_allclose(running_var, expected_var, **tolerance)


def test_running_statistics_of_float16_input_in_float32_arrays():
    x = numpy.random.uniform(-1, 1, (8, 2)).astype(numpy.float16)
    gamma, beta = _parameters((2,), numpy.float16)
    running_mean, running_var = numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float32)
    F.batch_normalization(x, gamma, beta, running_mean=running_mean, running_var=running_var)
    x64 = x.astype(numpy.float64)
    assert running_mean.dtype == numpy.float32
    assert_allclose(running_mean, 0.1 * x64.mean(axis=0), atol=1e-6)
    assert_allclose(running_var, 0.1 * x64.var(axis=0, ddof=1), atol=1e-6)


def test_running_statistics_with_axis():
    x = numpy.random.uniform(-1, 1, (3, 4, 5))
    gamma, beta = _parameters((5,), numpy.float64)
    running_mean, running_var = numpy.zeros(5), numpy.zeros(5)
    F.batch_normalization(x, gamma, beta, running_mean=running_mean, running_var=running_var,
                          decay=0.0, axis=(0, 1))
    numpy.testing.assert_allclose(running_mean, x.mean(axis=(0, 1)), rtol=1e-12)
    numpy.testing.assert_allclose(running_var, x.var(axis=(0, 1), ddof=1), rtol=1e-12)


def test_variance_of_values_far_from_zero_is_accurate():
    # E[x^2] - E[x]^2 in float32 would lose every digit of a variance of 1e-4 around 1e3. The
    # float32 mean itself is off by about 4e-8 * 1e3, shifting y by up to 1e-2 standard units.
    x = (1000 + numpy.random.normal(0, 0.01, (16, 3, 4, 4))).astype(numpy.float32)
    gamma, beta = numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)
    y = F.batch_normalization(x, gamma, beta, eps=0.0).array.astype(numpy.float64)
    x64 = x.astype(numpy.float64)
    expected = _reference(x, gamma, beta, x64.mean(axis=(0, 2, 3)), x64.var(axis=(0, 2, 3)),
                          0.0, (0, 2, 3))
    assert_allclose(y, expected, atol=1e-2, rtol=0)
    assert_allclose(y.std(axis=(0, 2, 3)), numpy.ones(3), atol=1e-4, rtol=0)


def test_float16_is_computed_in_float32():
    # The sum of the 1600 values of a channel (about 1.6e5) overflows float16.
    x = numpy.random.uniform(99, 101, (16, 2, 10, 10)).astype(numpy.float16)
    gamma, beta = numpy.ones(2, numpy.float16), numpy.zeros(2, numpy.float16)
    xv = Variable(x)
    y = F.batch_normalization(xv, gamma, beta)
    x64 = x.astype(numpy.float64)
    expected = _reference(x, gamma, beta, x64.mean(axis=(0, 2, 3)), x64.var(axis=(0, 2, 3)),
                          2e-5, (0, 2, 3))
    assert y.dtype == numpy.float16
    assert_allclose(y.array, expected, atol=1e-2, rtol=1e-2)
    y.grad = numpy.ones_like(x)
    y.backward()
    assert numpy.isfinite(xv.grad).all()


def test_gradients_flow_to_all_inputs_of_fixed_batch_normalization():
    args = [Variable(numpy.random.uniform(0.5, 1.5, s)) for s in ((4, 3), (3,), (3,), (3,),
                                                                  (3,))]
    y = F.fixed_batch_normalization(*args)
    F.sum(y * y).backward()
    assert all(a.grad is not None and a.grad.shape == a.shape for a in args)


def test_single_sample_batch_warns():
    with pytest.warns(UserWarning, match='batch_normalization: x of shape \\(1, 3\\)'):
        y = F.batch_normalization(numpy.ones((1, 3), numpy.float32),
                                  numpy.ones(3, numpy.float32), numpy.full(3, 2, numpy.float32))
    numpy.testing.assert_array_equal(y.array, numpy.full((1, 3), 2))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        F.batch_normalization(numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float32),
                              numpy.zeros(3, numpy.float32))


_X = numpy.zeros((4, 3, 2, 2), numpy.float32)
_P = numpy.zeros(3, numpy.float32)


@pytest.mark.parametrize('kwargs, error, message', [
    ({'gamma': numpy.zeros(4, numpy.float32)}, ValueError,
     r'batch_normalization: gamma must have shape \(3,\) \(the axes \(1,\) of x, which axis '
     r'\(0, 2, 3\) leaves of shape \(4, 3, 2, 2\)\), but got shape \(4,\)'),
    ({'beta': numpy.zeros((3, 2), numpy.float32)}, ValueError,
     r'batch_normalization: beta must have shape \(3,\) .* but got shape \(3, 2\)'),
    ({'gamma': numpy.zeros(3)}, TypeError,
     r'batch_normalization: gamma must have the dtype of x \(float32\), but got dtype float64'),
    ({'x': _X.astype(numpy.int32)}, TypeError,
     r'batch_normalization: x must be a floating-point array, but got dtype int32'),
    ({'axis': (2, 0)}, ValueError, r'batch_normalization: the axes in axis must be in '
                                   r'ascending order without repeats, but got \(2, 0\)'),
    ({'axis': 4}, ValueError, r'batch_normalization: axis must be in \[-4, 4\)'),
    ({'axis': 'channels'}, TypeError, r'batch_normalization: axis must be None, an int or a '
                                      r'tuple of ints, but got str'),
    ({'running_mean': numpy.zeros(3, numpy.float32)}, ValueError,
     r'batch_normalization: running_mean and running_var must be given together'),
    ({'running_mean': numpy.zeros(2, numpy.float32),
      'running_var': numpy.zeros(2, numpy.float32)}, ValueError,
     r'batch_normalization: running_mean must have the shape of gamma \(3,\), but got shape '
     r'\(2,\)'),
    ({'running_mean': Variable(_P), 'running_var': Variable(_P)}, TypeError,
     r'batch_normalization: running_mean must be an array \(it is updated in place\)'),
    ({'eps': -1.0}, ValueError, r'batch_normalization: eps must be non-negative, but got -1.0'),
])
def test_batch_normalization_rejects_bad_input(kwargs, error, message):
    args = {'x': _X, 'gamma': _P, 'beta': _P}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        F.batch_normalization(args.pop('x'), args.pop('gamma'), args.pop('beta'), **args)


def test_fixed_batch_normalization_rejects_mismatched_statistics():
    with pytest.raises(ValueError, match=r'fixed_batch_normalization: var must have shape '
                                         r'\(3,\) .* of shape \(4, 3, 2, 2\)\), but got shape '
                                         r'\(2,\)'):
        F.fixed_batch_normalization(_X, _P, _P, _P, numpy.ones(2, numpy.float32))


def test_batch_normalization_rejects_running_statistics_on_another_device():
    emulated = devices()[1]
    with pytest.raises(ValueError, match=r'batch_normalization: running_mean must be on the '
                                         r'device of x \(@emulated\), but it is on @numpy'):
        F.batch_normalization(emulated.send(_X), emulated.send(_P), emulated.send(_P),
                              running_mean=_P.copy(), running_var=_P.copy())

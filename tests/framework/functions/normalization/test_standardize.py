"""The standardization nodes behind the double backward of the normalizations: their own
gradients (so third-order derivatives of the normalizations) are checked here."""

import numpy
import pytest

from framework.functions.normalization._standardize import (
    MulInvStd,
    Standardize,
    StandardizeGrad,
    Statistics,
    sum_of_products,
)
from framework.testing import FLOAT_DTYPES, FunctionTestCase

_AXES = {(4, 3): (0,), (2, 3, 4): (1, 2), (3, 2, 5): (0, 2)}


def _reference(x, axes, eps=1e-5):
    x = x.astype(numpy.float64)
    mean = x.mean(axis=axes, keepdims=True)
    inv_std = 1 / numpy.sqrt(((x - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
    return (x - mean) * inv_std, inv_std


class _Case(FunctionTestCase):
    params = [{'shape': s, 'dtype': d} for s in _AXES for d in FLOAT_DTYPES]

    def _setup(self, param):
        super()._setup(param)
        self.axes = _AXES[self.shape]
        loose = {'atol': 5e-2, 'rtol': 5e-2} if self.dtype == numpy.float16 else {}
        self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3} if loose else {}
        self.check_backward_options = self.check_double_backward_options = loose

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
                     for _ in range(self.n_inputs))

    def _stats(self, x):
        # Computed from the (perturbed) input of each call, as a normalization's forward does.
        return Statistics(x.array, self.axes, 1e-5)


class TestStandardize(_Case):
    n_inputs = 1

    def forward(self, inputs, device):
        x, = inputs
        return Standardize(self._stats(x)).apply((x,))

    def forward_expected(self, inputs):
        return _reference(inputs[0], self.axes)[0].astype(self.dtype),


class TestStandardizeGrad(_Case):
    n_inputs = 2

    def forward(self, inputs, device):
        x, g = inputs
        return StandardizeGrad(self._stats(x)).apply((x, g))

    def forward_expected(self, inputs):
        x_hat, inv_std = _reference(inputs[0], self.axes)
        g = inputs[1].astype(numpy.float64)
        p = inv_std * (g - g.mean(axis=self.axes, keepdims=True)
                       - x_hat * (g * x_hat).mean(axis=self.axes, keepdims=True))
        return p.astype(self.dtype),


class TestMulInvStd(_Case):
    n_inputs = 2

    def forward(self, inputs, device):
        x, y = inputs
        return MulInvStd(self._stats(x)).apply((x, y))

    def forward_expected(self, inputs):
        inv_std = _reference(inputs[0], self.axes)[1]
        return (inv_std * inputs[1]).astype(self.dtype),


def _layouts(shape, rng):
    """The same values contiguous, channel by channel ((C, N, ...) memory) and strided."""
    a = rng.randn(*shape).astype(numpy.float32)
    channel_major = numpy.moveaxis(numpy.ascontiguousarray(numpy.moveaxis(a, 1, 0)), 0, 1)
    strided = numpy.repeat(a, 2, axis=-1)[..., ::2]
    return {'contiguous': a, 'channel_major': channel_major, 'strided': strided}


@pytest.mark.parametrize('shape', [(3, 4, 5, 6), (2, 3, 7), (1, 2, 3, 4, 5)])
@pytest.mark.parametrize('layout_a, layout_b', [('contiguous', 'contiguous'),
                                                ('channel_major', 'channel_major'),
                                                ('channel_major', 'contiguous'),
                                                ('strided', 'channel_major')])
def test_sum_of_products_over_all_axes_but_the_channels(shape, layout_a, layout_b):
    rng = numpy.random.RandomState(0)
    a = _layouts(shape, rng)[layout_a]
    b = _layouts(shape, rng)[layout_b]
    axes = (0,) + tuple(range(2, len(shape)))
    expected = (a.astype(numpy.float64) * b).sum(axis=axes, keepdims=True)
    actual = sum_of_products(a, b, axes)
    assert actual.shape == expected.shape
    numpy.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5)


def test_sum_of_products_over_other_axes():
    rng = numpy.random.RandomState(1)
    a, b = rng.randn(2, 3, 4, 5), rng.randn(2, 3, 4, 5)
    numpy.testing.assert_allclose(sum_of_products(a, b, (1, 2, 3)),
                                  (a * b).sum(axis=(1, 2, 3), keepdims=True))

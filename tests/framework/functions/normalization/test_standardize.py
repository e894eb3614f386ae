"""The standardization nodes behind the double backward of the normalizations: their own
gradients (so third-order derivatives of the normalizations) are checked here."""

import numpy

from framework.functions.normalization._standardize import (
    MulInvStd,
    Standardize,
    StandardizeGrad,
    Statistics,
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

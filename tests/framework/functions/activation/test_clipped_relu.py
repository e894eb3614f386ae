import numpy
import pytest

import framework.functions as F
from framework.testing import FLOAT_DTYPES, FunctionTestCase, product


def _uniform_away_from(kinks, low, high, shape, dtype, margin=0.05):
    x = numpy.asarray(numpy.random.uniform(low, high, shape))

    def near():
        return numpy.any([abs(x - k) < margin for k in kinks], axis=0)

    while near().any():
        x = numpy.where(near(), numpy.random.uniform(low, high, shape), x)
    return x.astype(dtype)


class TestClippedReLU(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'z': [0.75, 20.0],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform_away_from((0, self.z), -1.5 * self.z, 1.5 * self.z, self.shape,
                                  self.dtype),

    def forward(self, inputs, device):
        return F.clipped_relu(inputs[0], self.z),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.clip(x.astype(numpy.float64), 0, self.z).astype(self.dtype),


class TestClippedReLUDefault(FunctionTestCase):
    params = product({'dtype': FLOAT_DTYPES})
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([-3.0, 5.0, 19.0, 25.0], self.dtype),

    def forward(self, inputs, device):
        return F.clipped_relu(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.array([0.0, 5.0, 19.0, 20.0], self.dtype),


class TestReLU6(FunctionTestCase):
    params = product({'shape': [(3, 2), (), (2, 3, 4)], 'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        return _uniform_away_from((0, 6), -3, 9, self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.relu6(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.minimum(numpy.maximum(x.astype(numpy.float64), 0), 6).astype(self.dtype),


class TestReLU6AtKinks(FunctionTestCase):
    """At 0 and 6 the gradient is 0, as in Chainer."""
    params = product({'dtype': FLOAT_DTYPES})
    # The numerical derivative is undefined at the kinks; backward_expected checks them exactly.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return numpy.array([-1.0, 0.0, 3.0, 6.0, 7.0], self.dtype),

    def forward(self, inputs, device):
        return F.relu6(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.array([0, 0, 3, 6, 6], self.dtype),

    def backward_expected(self, inputs, grad_outputs):
        gy, = grad_outputs
        return gy * numpy.array([0, 0, 1, 0, 0], self.dtype),


class TestClippedReLUAtKinks(TestReLU6AtKinks):

    def generate_inputs(self):
        return numpy.array([-1.0, 0.0, 0.5, 0.75, 1.0], self.dtype),

    def forward(self, inputs, device):
        return F.clipped_relu(inputs[0], 0.75),

    def forward_expected(self, inputs):
        return numpy.array([0, 0, 0.5, 0.75, 0.75], self.dtype),


def test_clipped_relu_accepts_an_int_z():
    y = F.clipped_relu(numpy.array([-1.0, 0.5, 3.0], numpy.float32), 1)
    numpy.testing.assert_array_equal(y.array, [0.0, 0.5, 1.0])


def test_clipped_relu_rejects_non_positive_z():
    with pytest.raises(ValueError, match='clipped_relu: z must be positive, but got 0.0'):
        F.clipped_relu(numpy.zeros(3, numpy.float32), 0.0)


def test_clipped_relu_rejects_non_number_z():
    with pytest.raises(TypeError, match='clipped_relu: z must be a float, but got str'):
        F.clipped_relu(numpy.zeros(3, numpy.float32), '6')


def test_relu6_rejects_integer_input():
    with pytest.raises(TypeError, match='relu6: x must be a floating-point array'):
        F.relu6(numpy.zeros(3, numpy.int64))

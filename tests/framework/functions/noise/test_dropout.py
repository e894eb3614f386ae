import numpy
import pytest

import framework
import framework.functions as F
from framework import Variable, backend, using_config
from framework.testing import FLOAT_DTYPES, FunctionTestCase, devices, product


class TestDropoutWithMask(FunctionTestCase):
    """With a given mask dropout is a product by a constant."""

    params = product({'shape': [(3, 4), (2, 3, 2), ()], 'ratio': [0.0, 0.25, 0.5],
                      'dtype': FLOAT_DTYPES})

    def generate_inputs(self):
        scale = 1 / (1 - self.ratio)
        keep = numpy.random.uniform(0, 1, self.shape) >= self.ratio
        self.mask = numpy.asarray(keep * scale, self.dtype)
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        return F.dropout(x, self.ratio, mask=device.send(self.mask)),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(x * self.mask, self.dtype),


@pytest.mark.parametrize('device', devices(), ids=str)
@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_dropout_draws_a_scaled_mask(device, dtype):
    x = device.send(numpy.ones((200, 50), dtype))
    y, mask = F.dropout(x, 0.3, return_mask=True)
    assert backend.get_device_from_array(mask) == device
    assert mask.dtype == dtype and mask.shape == x.shape
    values = backend.to_cpu(mask)
    scale = dtype(1 / 0.7)
    assert set(numpy.unique(values)) <= {dtype(0), scale}
    assert abs((values == 0).mean() - 0.3) < 0.02
    numpy.testing.assert_array_equal(backend.to_cpu(y.array), values)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_dropout_gradient_is_the_mask(device):
    x = Variable(device.send(numpy.random.uniform(-1, 1, (5, 6)).astype(numpy.float32)))
    y, mask = F.dropout(x, return_mask=True)
    gy = device.send(numpy.random.uniform(-1, 1, (5, 6)).astype(numpy.float32))
    gx, = framework.grad([y], [x], [gy])
    numpy.testing.assert_array_equal(backend.to_cpu(gx.array), backend.to_cpu(gy * mask))


@pytest.mark.parametrize('device', devices(), ids=str)
def test_seed_makes_dropout_reproducible(device):
    x = device.send(numpy.ones((10, 10), numpy.float32))
    framework.random.seed(3)
    first = backend.to_cpu(F.dropout(x).array)
    second = backend.to_cpu(F.dropout(x).array)
    framework.random.seed(3)
    numpy.testing.assert_array_equal(backend.to_cpu(F.dropout(x).array), first)
    assert not numpy.array_equal(first, second)


def test_dropout_with_ratio_zero_keeps_everything():
    x = numpy.random.uniform(-1, 1, (4, 5)).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.dropout(x, 0.0).array, x)


def test_dropout_is_the_identity_when_not_training():
    x = Variable(numpy.random.uniform(-1, 1, (4, 5)).astype(numpy.float32))
    with using_config('train', False):
        assert F.dropout(x) is x
        y, mask = F.dropout(x.array, return_mask=True)
    assert isinstance(y, Variable) and y.array is x.array and mask is None


def test_dropout_rejects_ratio_one():
    with pytest.raises(ValueError, match=r'dropout: ratio must be in \[0, 1\), but got 1.0'):
        F.dropout(numpy.zeros(3, numpy.float32), 1.0)


def test_dropout_rejects_integers():
    with pytest.raises(TypeError, match='dropout: x must be a floating-point array'):
        F.dropout(numpy.zeros(3, numpy.int32))


def test_dropout_rejects_the_train_argument():
    with pytest.raises(ValueError, match='dropout: the train argument is not supported'):
        F.dropout(numpy.zeros(3, numpy.float32), train=True)


def test_dropout_rejects_unknown_arguments():
    with pytest.raises(TypeError, match='unexpected keyword argument'):
        F.dropout(numpy.zeros(3, numpy.float32), seed=1)


def test_dropout_rejects_a_mask_of_another_shape():
    with pytest.raises(ValueError, match=r'dropout: mask must have shape \(3,\)'):
        F.dropout(numpy.zeros(3, numpy.float32), mask=numpy.ones(4, numpy.float32))


def test_dropout_casts_the_mask_to_the_dtype_of_x():
    y, mask = F.dropout(numpy.ones(3, numpy.float16), mask=numpy.full(3, 2.0), return_mask=True)
    assert y.dtype == numpy.float16 and mask.dtype == numpy.float16


def test_dropout_rejects_a_variable_mask():
    with pytest.raises(TypeError, match='dropout: mask must be an array or None, but got Variable'):
        F.dropout(numpy.zeros(3, numpy.float32), mask=Variable(numpy.ones(3, numpy.float32)))

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import backend, initializers
from framework.testing import check_backward, devices


def _x(*shape, dtype=numpy.float32):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(dtype)


def test_parameters_as_chainer():
    link = L.Linear(3, 4)
    assert [(p, v.shape, v.dtype) for p, v in link.namedparams()] == [
        ('/W', (4, 3), numpy.float32), ('/b', (4,), numpy.float32)]
    numpy.testing.assert_array_equal(link.b.array, 0)
    assert L.Linear(3, 4, nobias=True).b is None
    assert [p for p, _ in L.Linear(3, 4, nobias=True).namedparams()] == ['/W']
    assert str(link) == 'Linear(in_size=3, out_size=4, nobias=False)'


def test_default_initializer_is_lecun_normal_from_the_seed():
    framework.random.seed(0)
    link = L.Linear(50, 400)
    assert abs(link.W.array.std() / numpy.sqrt(1 / 50) - 1) < 0.05
    framework.random.seed(0)
    numpy.testing.assert_array_equal(L.Linear(50, 400).W.array, link.W.array)


@pytest.mark.parametrize('device', devices(), ids=str)
def test_forward_is_the_linear_function(device):
    link = L.Linear(3, 4, initial_bias=initializers.Normal()).to_device(device)
    x = device.send(_x(2, 3))
    y = link(x)
    assert backend.get_device_from_array(y.array) == device
    expected = _x(2, 3) @ backend.to_cpu(link.W.array).T + backend.to_cpu(link.b.array)
    numpy.testing.assert_allclose(backend.to_cpu(y.array), expected, rtol=1e-5, atol=1e-6)


def test_lazy_input_size_and_batch_axes():
    link = L.Linear(4)
    assert link.in_size is None and not link.W.is_initialized
    assert link.b.shape == (4,)
    y = link(_x(2, 3, 5), n_batch_axes=2)
    assert link.W.shape == (4, 5) and y.shape == (2, 3, 4)
    link = L.Linear(None, 4)
    assert link(_x(2, 3, 5)).shape == (2, 4) and link.W.shape == (4, 15)


def test_initializers_and_from_params():
    W = _x(4, 3)
    link = L.Linear(3, 4, initialW=W, initial_bias=2.0)
    numpy.testing.assert_array_equal(link.W.array, W)
    numpy.testing.assert_array_equal(link.b.array, 2.0)
    made = L.Linear.from_params(W, numpy.arange(4, dtype=numpy.float32))
    assert made.in_size == 3 and made.out_size == 4
    numpy.testing.assert_array_equal(made.b.array, [0, 1, 2, 3])
    with pytest.raises(ValueError, match='b must have 4 elements'):
        L.Linear.from_params(W, numpy.zeros(3, numpy.float32))


def test_gradient_check_with_params():
    link = L.Linear(3, 2, initial_bias=initializers.Uniform(1.0))
    x = _x(4, 3, dtype=numpy.float64)
    link.W.array = link.W.array.astype(numpy.float64)
    link.b.array = link.b.array.astype(numpy.float64)
    gy = _x(4, 2, dtype=numpy.float64)
    check_backward(link, x, gy, params=(link.W, link.b), atol=1e-6, rtol=1e-5)


def test_float16_initializer_gives_float16_parameters():
    link = L.Linear(3, 2, initialW=initializers.LeCunNormal(dtype=numpy.float16),
                    initial_bias=initializers.Zero(numpy.float16))
    assert link.W.dtype == numpy.float16 and link.b.dtype == numpy.float16
    assert link(_x(2, 3, dtype=numpy.float16)).dtype == numpy.float16
    assert F.sum(link(_x(2, 3, dtype=numpy.float16))).array.dtype == numpy.float16

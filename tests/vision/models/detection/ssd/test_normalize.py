import numpy
import pytest

from framework.testing import check_backward, check_double_backward
from vision.models.detection.ssd import Normalize


def _inputs(seed=0):
    rng = numpy.random.RandomState(seed)
    return rng.normal(size=(2, 3, 4, 5)), rng.normal(size=(2, 3, 4, 5))


def _link(dtype=numpy.float64):
    link = Normalize(3, initial=numpy.array([20, 0.5, -1.0]))
    link.scale.array = link.scale.array.astype(dtype)
    return link


def test_forward_scales_the_unit_channel_vectors():
    x, _ = _inputs()
    x = x.astype(numpy.float32)
    y = _link(numpy.float32)(x).array
    assert y.dtype == numpy.float32 and y.shape == x.shape
    norm = numpy.sqrt((x ** 2).sum(axis=1, keepdims=True))
    numpy.testing.assert_allclose(y, x / (norm + 1e-5) * numpy.array([20, 0.5, -1])[:, None, None],
                                  rtol=1e-5, atol=1e-6)


def test_a_zero_vector_gives_zeros():
    y = Normalize(3, initial=20)(numpy.zeros((1, 3, 2, 2), numpy.float32)).array
    assert not y.any()


def test_default_scale_is_chainercvs():
    assert not Normalize(4).scale.array.any()
    assert Normalize(4).eps == 1e-5


def test_backward():
    x, gy = _inputs()
    link = _link()
    check_backward(link, x, gy, params=(link.scale,), eps=1e-4, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize('seed', [0, 1])
def test_double_backward(seed):
    x, gy = _inputs(seed)
    ggx = numpy.random.RandomState(seed + 10).normal(size=x.shape)
    link = _link()
    check_double_backward(link, x, gy, ggx, params=(link.scale,),
                          params_grad_grad=(numpy.ones(3),), eps=1e-4, atol=1e-6, rtol=1e-5)

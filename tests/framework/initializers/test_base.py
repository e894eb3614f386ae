import numpy
import pytest

from framework import initializers
from framework.testing.emulated_device import EmulatedArray


@pytest.mark.parametrize('shape, fans', [
    ((3, 4), (4, 3)),
    ((8, 3, 5, 5), (75, 200)),
    ((2, 6, 3), (18, 6)),
])
def test_get_fans(shape, fans):
    assert initializers.get_fans(shape) == fans


def test_get_fans_needs_two_axes():
    with pytest.raises(ValueError, match='at least two axes'):
        initializers.get_fans((3,))


def test_generate_array_dtype_and_device():
    a = initializers.generate_array(initializers.One(), (2, 3))
    assert a.dtype == numpy.float32 and (a == 1).all()
    b = initializers.generate_array(initializers.One(numpy.float16), (2,))
    assert b.dtype == numpy.float16
    c = initializers.generate_array(initializers.One(), (2,), dtype=numpy.float64,
                                    device='@emulated')
    assert isinstance(c, EmulatedArray) and c.dtype == numpy.float64
    with pytest.raises(ValueError, match='dtype'):
        initializers.generate_array(initializers.One(numpy.float16), (2,), dtype=numpy.float32)


def test_initializers_check_the_dtype_of_the_array():
    for initializer in (initializers.Zero(numpy.float16), initializers.Normal(dtype='f'),
                        initializers.HeUniform(dtype='d'), initializers.Orthogonal(dtype='e'),
                        initializers.Identity(dtype='f')):
        wrong = numpy.float64 if initializer.dtype != numpy.float64 else numpy.float32
        with pytest.raises(TypeError, match=type(initializer).__name__):
            initializer(numpy.empty((2, 2), wrong))


def test_repr():
    assert repr(initializers.HeNormal(2.0)) == "HeNormal(scale=2.0, fan_option='fan_in')"
    assert repr(initializers.Constant(1, 'f')) == "Constant(dtype=dtype('float32'), fill_value=1)"

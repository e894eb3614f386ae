import numpy
import pytest

from framework import initializers


def test_get_initializer():
    assert isinstance(initializers.get_initializer(None), initializers.LeCunNormal)
    constant = initializers.get_initializer(2)
    assert isinstance(constant, initializers.Constant) and constant.fill_value == 2
    assert isinstance(initializers.get_initializer(numpy.float32(1)), initializers.Constant)
    assert isinstance(initializers.get_initializer(numpy.zeros(2)), initializers.Constant)
    normal = initializers.Normal()
    assert initializers.get_initializer(normal) is normal
    assert initializers.get_initializer(print) is print
    with pytest.raises(TypeError, match='get_initializer'):
        initializers.get_initializer('he')

import numpy
import pytest

from framework import FunctionNode
from framework.testing import FunctionTestCase, devices, product


class HostLeak(FunctionNode):
    """An op that wrongly creates its output with numpy instead of xp."""

    def forward(self, inputs):
        return inputs[0] + numpy.ones(inputs[0].shape, inputs[0].dtype),


class _Case(FunctionTestCase):
    params = product({'dtype': [numpy.float32]})

    def generate_inputs(self):
        return numpy.ones(3, self.dtype),

    def forward(self, inputs, device):
        return HostLeak().apply(inputs)

    def forward_expected(self, inputs):
        return inputs[0] + 1,


@pytest.mark.cupy_refusals
def test_a_host_array_in_forward_fails_on_the_emulated_device():
    case = _Case()
    cpu, emulated = devices()[:2]
    case.test_forward({'dtype': numpy.float32}, cpu)
    with pytest.raises(TypeError, match='cannot be mixed with a host'):
        case.test_forward({'dtype': numpy.float32}, emulated)


def test_wrong_expected_value_fails():
    class Wrong(_Case):
        def forward_expected(self, inputs):
            return inputs[0] + 2,

    with pytest.raises(AssertionError):
        Wrong().test_forward({'dtype': numpy.float32}, devices()[0])


def test_product():
    assert product({'a': [1, 2], 'b': ['x']}) == [{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'x'}]

"""Testing helpers: gradient checks, a declarative base for op tests, devices to test on."""

from framework.testing.devices import devices
from framework.testing.function_test_case import (
    FLOAT_DTYPES,
    FunctionTestCase,
    assert_allclose,
    product,
)
from framework.testing.gradient_check import (
    NondifferentiableError,
    check_backward,
    check_double_backward,
)

__all__ = [
    'FLOAT_DTYPES', 'FunctionTestCase', 'NondifferentiableError', 'assert_allclose',
    'check_backward', 'check_double_backward', 'devices', 'product',
]

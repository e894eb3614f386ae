"""Testing helpers: gradient checks, a declarative base for op tests, devices to test on, and
Chainer's parameterised test classes (``parameterize``, ``product``, ``product_dict``,
``run_module``)."""

from framework.testing.devices import devices
from framework.testing.function_test_case import (
    FLOAT_DTYPES,
    FunctionTestCase,
    assert_allclose,
)
from framework.testing.gradient_check import (
    NondifferentiableError,
    check_backward,
    check_double_backward,
)
from framework.testing.parameterized import (
    parameterize,
    parameterize_pytest,
    product,
    product_dict,
    run_module,
)

__all__ = [
    'FLOAT_DTYPES', 'FunctionTestCase', 'NondifferentiableError', 'assert_allclose',
    'check_backward', 'check_double_backward', 'devices', 'parameterize', 'parameterize_pytest',
    'product', 'product_dict', 'run_module',
]

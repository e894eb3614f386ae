"""Testing helpers: gradient checks, a declarative base for op tests, devices to test on,
Chainer's parameterised test classes (``parameterize``, ``product``, ``product_dict``,
``run_module``) and repeated trials of flaky tests (:mod:`~framework.testing.condition`)."""

from framework.testing import condition
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
    'check_backward', 'check_double_backward', 'condition', 'devices', 'parameterize',
    'parameterize_pytest', 'product', 'product_dict', 'run_module',
]

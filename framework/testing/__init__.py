"""Testing helpers: gradient checks, a declarative base for op tests, devices to test on,
Chainer's parameterised test classes (``parameterize``, ``product``, ``product_dict``,
``run_module``), repeated trials of flaky tests (:mod:`~framework.testing.condition`) and a
trainer over a mock updater for testing extensions (``get_trainer_with_mock_updater``)."""

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
from framework.testing.training import get_trainer_with_mock_updater

__all__ = [
    'FLOAT_DTYPES', 'FunctionTestCase', 'NondifferentiableError', 'assert_allclose',
    'check_backward', 'check_double_backward', 'condition', 'devices',
    'get_trainer_with_mock_updater', 'parameterize',
    'parameterize_pytest', 'product', 'product_dict', 'run_module',
]

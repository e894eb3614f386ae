"""PolynomialShift: init * (1 - t / max_count) ** rate."""

import pytest

from framework.training import extensions


def test_decay_to_zero(shift_values):
    shift = extensions.PolynomialShift('lr', 2, 4)
    assert shift_values(shift, 5) == pytest.approx([1.0, 0.5625, 0.25, 0.0625, 0.0, 0.0])


def test_target_holds_the_value(shift_values):
    shift = extensions.PolynomialShift('lr', 1, 4, init=2.0, target=0.8)
    assert shift_values(shift, 5) == pytest.approx([2.0, 1.5, 1.0, 0.8, 0.8, 0.8])

"""StepShift: init * gamma ** floor(t / step), stopped at a target."""

import pytest

from framework.training import extensions


def test_steps(shift_values):
    shift = extensions.StepShift('lr', 0.1, 2)
    assert shift_values(shift, 5) == pytest.approx([1.0, 1.0, 0.1, 0.1, 0.01, 0.01])


def test_target(shift_values):
    shift = extensions.StepShift('lr', 0.1, 2, init=2.0, target=0.05)
    assert shift_values(shift, 6) == pytest.approx([2.0, 2.0, 0.2, 0.2, 0.05, 0.05, 0.05])
    shift = extensions.StepShift('lr', 3.0, 1, init=1.0, target=10.0)
    assert shift_values(shift, 3) == pytest.approx([1.0, 3.0, 9.0, 10.0])

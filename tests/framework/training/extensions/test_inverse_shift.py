"""InverseShift: init * (1 + gamma * t) ** -power, stopped at a target."""

import pytest

from framework.training import extensions


def test_decay_from_the_optimizer_value(shift_values):
    values = shift_values(extensions.InverseShift('lr', 0.5, 2.0), 3, lr=0.9)
    assert values == pytest.approx([0.9 * (1 + 0.5 * t) ** -2.0 for t in range(4)])


def test_init_and_target(shift_values):
    shift = extensions.InverseShift('lr', 1.0, 1.0, init=1.0, target=0.3)
    assert shift_values(shift, 4) == pytest.approx([1.0, 0.5, 1 / 3, 0.3, 0.3])
    shift = extensions.InverseShift('lr', 1.0, -1.0, init=1.0, target=2.5)
    assert shift_values(shift, 3) == pytest.approx([1.0, 2.0, 2.5, 2.5])


def test_negative_gamma_is_refused():
    with pytest.raises(ValueError, match='InverseShift: gamma must be non-negative, but got -1'):
        extensions.InverseShift('lr', -1, 1.0)

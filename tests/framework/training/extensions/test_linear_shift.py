"""LinearShift: v1 until t1, linearly to v2 at t2, then v2."""

import pytest

from framework.training import extensions


def test_linear_ramp(make_trainer, record_values):
    trainer = make_trainer((6, 'iteration'))
    values = record_values(trainer, 'momentum')
    trainer.extend(extensions.LinearShift('momentum', (0.5, 0.9), (1, 5)))
    trainer.run()
    assert values == pytest.approx([0.5, 0.5, 0.6, 0.7, 0.8, 0.9, 0.9])

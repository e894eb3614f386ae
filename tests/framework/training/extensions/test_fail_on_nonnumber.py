"""FailOnNonNumber: stops a diverged training."""

import numpy
import pytest

from framework.training import extensions


@pytest.mark.parametrize('where,value', [('array', numpy.nan), ('array', numpy.inf),
                                         ('grad', numpy.nan)])
def test_raises_on_non_finite_values(make_trainer, where, value):
    trainer = make_trainer((3, 'iteration'))
    param = trainer.updater.get_optimizer('main').target.W

    def poison(t):
        if t.updater.iteration == 2:
            getattr(param, where)[0, 0] = value

    trainer.extend(poison, name='poison', priority=1000)
    trainer.extend(extensions.FailOnNonNumber())
    kind = 'gradient of /W' if where == 'grad' else 'parameter /W'
    with pytest.raises(RuntimeError, match=f"the {kind} .*'main' .*diverged"):
        trainer.run()
    assert trainer.updater.iteration == 2


def test_check_grad_false_and_finite_values(make_trainer):
    trainer = make_trainer((1, 'iteration'))
    param = trainer.updater.get_optimizer('main').target.W
    trainer.extend(lambda t: param.grad.fill(numpy.nan), name='poison', priority=1000)
    trainer.extend(extensions.FailOnNonNumber(check_grad=False))
    trainer.run()
    assert trainer.updater.iteration == 1

"""ParameterStatistics: statistics of parameters and gradients, with Chainer's keys."""

import numpy
import pytest

import framework.links as L
from framework import optimizers
from framework.training import extensions


def _trainer(make_trainer, stop=2):
    model = L.Linear(3, 2)
    model.name = 'main'
    optimizer = optimizers.SGD().setup(model)
    return make_trainer((stop, 'iteration'), optimizer=optimizer), model


def _observed(trainer, ext):
    seen = []
    trainer.extend(ext)
    trainer.extend(lambda t: seen.append(dict(t.observation)), name='read')
    trainer.run()
    return seen


def test_default_statistics_and_keys(make_trainer):
    trainer, model = _trainer(make_trainer)
    ext = extensions.ParameterStatistics(model, trigger=(1, 'iteration'))
    seen = _observed(trainer, ext)
    stats = seen[-1]
    w = model.W.array.ravel()
    assert stats['main/W/data/mean'] == pytest.approx(w.mean())
    assert stats['main/W/data/std'] == pytest.approx(w.std())
    assert stats['main/W/data/min'] == pytest.approx(w.min())
    assert stats['main/W/data/max'] == pytest.approx(w.max())
    assert stats['main/b/data/zeros'] == 2
    assert stats['main/W/grad/zeros'] == 6  # the mock updater's gradients are zero
    percentiles = numpy.percentile(w, (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87))
    for i, p in enumerate(percentiles):
        assert stats[f'main/W/data/percentile/{i}'] == pytest.approx(p)
    assert len(stats) == 2 * 2 * (5 + 7)


def test_options(make_trainer):
    trainer, model = _trainer(make_trainer, stop=4)
    ext = extensions.ParameterStatistics([model], statistics={'l1': lambda x: abs(x).sum()},
                                         report_grads=False, prefix='stats',
                                         trigger=(2, 'iteration'))
    ext.register_statistics('size', lambda x: x.size)
    seen = _observed(trainer, ext)
    assert seen[0] == {}
    assert sorted(seen[1]) == ['stats/main/W/data/l1', 'stats/main/W/data/size',
                               'stats/main/b/data/l1', 'stats/main/b/data/size']
    assert seen[1]['stats/main/W/data/size'] == 6


def test_root_link_without_a_name_and_nan_params(make_trainer):
    model = L.Linear(2, 2)
    model.W.array[0, 0] = numpy.nan
    trainer = make_trainer((1, 'iteration'))
    ext = extensions.ParameterStatistics(model, statistics={'mean': numpy.mean},
                                         report_grads=False, skip_nan_params=True,
                                         trigger=(1, 'iteration'))
    seen = _observed(trainer, ext)
    assert numpy.isnan(seen[0]['None/W/data/mean'])  # Chainer's key for a root link
    assert seen[0]['None/b/data/mean'] == 0


def test_gradients_not_computed_yet_report_nan_under_the_grad_keys(make_trainer):
    model = L.Linear(3, 2)
    assert model.W.grad is None
    trainer = make_trainer((1, 'iteration'))
    ext = extensions.ParameterStatistics(model, statistics={'min': numpy.min},
                                         report_params=False, trigger=(1, 'iteration'))
    seen = _observed(trainer, ext)
    assert sorted(seen[0]) == ['None/W/grad/min', 'None/b/grad/min']
    assert all(numpy.isnan(v) for v in seen[0].values())

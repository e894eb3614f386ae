import numpy
import pytest

import framework
import framework.links as L
from framework.testing import get_trainer_with_mock_updater
from framework.training import extensions
from framework.training.extensions.variable_statistics_plot import Reservoir, Statistician

pytestmark = pytest.mark.skipif(not extensions.VariableStatisticsPlot.available(),
                                reason='matplotlib is not installed')


def _trainer(tmp_path, iterations):
    trainer = get_trainer_with_mock_updater(stop_trigger=(iterations, 'iteration'))
    trainer.out = str(tmp_path)
    return trainer


def test_plots_the_statistics_of_values_and_gradients(tmp_path):
    rng = numpy.random.RandomState(0)
    link = L.Linear(3, 4)
    link.W.array[...] = rng.randn(4, 3)
    trainer = _trainer(tmp_path, 3)
    plot = extensions.VariableStatisticsPlot(link, trigger=(3, 'iteration'),
                                             percentile_sigmas=(0, 50, 100))
    trainer.extend(plot)
    grads = []

    def set_grads(trainer):
        for param in link.params():
            param.grad = rng.randn(*param.shape).astype(param.dtype)
        grads.append(numpy.concatenate([p.grad.ravel() for p in link.params()]))
    set_grads.priority = extensions.VariableStatisticsPlot.priority + 1  # before the plot
    trainer.extend(set_grads, trigger=(1, 'iteration'))
    trainer.run()
    assert (tmp_path / 'statistics.png').stat().st_size > 0
    idxs, data = plot._samples.get_data()
    numpy.testing.assert_array_equal(idxs, [1, 2, 3])
    values = numpy.concatenate([p.array.ravel() for p in link.params()])
    for row, g in zip(data, grads):
        for stats, x in ((row[0], values), (row[1], g)):
            numpy.testing.assert_allclose(
                stats, [x.mean(), x.std(), x.min(), numpy.median(x), x.max()], rtol=1e-5,
                atol=1e-6)


def test_missing_gradients_are_nan_and_not_plotted(tmp_path):
    trainer = _trainer(tmp_path, 2)
    var = framework.Variable(numpy.arange(6, dtype=numpy.float32))
    plot = extensions.VariableStatisticsPlot(var, trigger=(1, 'iteration'), plot_std=False,
                                             percentile_sigmas=(), filename='v.svg')
    trainer.extend(plot)
    trainer.run()
    _, data = plot._samples.get_data()
    numpy.testing.assert_allclose(data[:, 0, 0], [2.5, 2.5])
    assert numpy.isnan(data[:, 1, 0]).all()
    assert (tmp_path / 'v.svg').read_text().startswith('<?xml')


def test_resume_keeps_the_sample(tmp_path):
    var = framework.Variable(numpy.linspace(-1, 1, 10, dtype=numpy.float32))
    trainer = _trainer(tmp_path, 5)
    plot = extensions.VariableStatisticsPlot(var, max_sample_size=2, report_grad=False)
    trainer.extend(plot)
    trainer.run()
    target = {}
    plot.serialize(framework.serializers.DictionarySerializer(target))
    restored = extensions.VariableStatisticsPlot(var, max_sample_size=2, report_grad=False)
    restored.serialize(framework.serializers.NpzDeserializer(target))
    for a, b in zip(plot._samples.get_data(), restored._samples.get_data()):
        numpy.testing.assert_array_equal(a, b)
    assert restored._samples.counter == 5


@pytest.mark.parametrize('kwargs, message', [
    ({'targets': []}, 'targets must hold at least one Variable, but hold none'),
    ({'targets': 'W'}, 'targets must be Variables, Links or lists of them, but got str'),
    ({'report_data': False, 'report_grad': False}, 'report_data or report_grad must be True'),
    ({'plot_mean': False, 'plot_std': False, 'percentile_sigmas': ()}, 'nothing to plot'),
    ({'percentile_sigmas': (50, 101)}, r'percentile_sigmas must be in \[0, 100\]'),
    ({'max_sample_size': 0}, 'max_sample_size must be a positive int, but got 0'),
])
def test_bad_arguments(kwargs, message):
    kwargs.setdefault('targets', framework.Variable(numpy.zeros(3, numpy.float32)))
    error = TypeError if kwargs['targets'] == 'W' else ValueError
    with pytest.raises(error, match='VariableStatisticsPlot: ' + message):
        extensions.VariableStatisticsPlot(**kwargs)


def test_reservoir_keeps_a_uniform_sample():
    counts = numpy.zeros(20)
    for _ in range(200):
        reservoir = Reservoir(size=5, data_shape=())
        for i in range(20):
            reservoir.add(float(i))
        idxs, data = reservoir.get_data()
        assert len(idxs) == 5 and (numpy.diff(idxs) > 0).all()
        counts[data.astype(int)] += 1
    # Each of the 20 items is kept with probability 1/4 (50 of 200 times on average).
    assert counts.min() > 20 and counts.max() < 85


def test_statistician():
    x = numpy.random.RandomState(1).uniform(-1, 1, (2, 7, 3))
    stats = Statistician(True, True, (0., 50., 100.))(x, axis=None, dtype=x.dtype)
    assert all(v.dtype == x.dtype for v in stats.values())
    numpy.testing.assert_allclose(stats['mean'], x.mean())
    numpy.testing.assert_allclose(stats['std'], x.std())
    numpy.testing.assert_allclose(stats['percentile'], [x.min(), numpy.median(x), x.max()])

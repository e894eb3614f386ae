"""framework.reporter: Reporter, report, report_scope, Summary and DictSummary (Chainer's)."""

import threading
import warnings

import numpy
import pytest

import framework
import framework.functions as F
from framework import reporter
from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.testing import devices


def test_report_prefixes_the_observer_name():
    rep = reporter.Reporter()
    observer = object()
    rep.add_observer('my_observer', observer)
    observation = {}
    with rep.scope(observation):
        rep.report({'x': 1}, observer)
        reporter.report({'y': 2}, observer)
        reporter.report({'z': 3})
    assert observation == {'my_observer/x': 1, 'my_observer/y': 2, 'z': 3}


def test_add_observers_registers_named_links_with_a_prefix():
    model = framework.Chain()
    with model.init_scope():
        model.fc = framework.links.Linear(2, 2)
    rep = reporter.Reporter()
    rep.add_observer('main', model)
    rep.add_observers('main', model.namedlinks(skipself=True))
    observation = {}
    with rep.scope(observation):
        reporter.report({'a': 1}, model.fc)
        reporter.report({'b': 2}, model)
    assert observation == {'main/fc/a': 1, 'main/b': 2}


def test_unregistered_observer_raises_key_error():
    rep = reporter.Reporter()
    with rep.scope({}), pytest.raises(KeyError, match='not registered'):
        reporter.report({'x': 1}, object())


def test_report_without_a_current_reporter_does_nothing():
    reporter.report({'x': 1})
    with pytest.raises(IndexError):
        reporter.get_current_reporter()


def test_scopes_nest_and_restore():
    outer, inner = reporter.Reporter(), reporter.Reporter()
    first, second, third = {}, {}, {}
    with outer.scope(first):
        assert reporter.get_current_reporter() is outer
        with inner.scope(second):
            assert reporter.get_current_reporter() is inner
            reporter.report({'a': 1})
            with reporter.report_scope(third):
                reporter.report({'b': 2})
            reporter.report({'c': 3})
        reporter.report({'d': 4})
    assert first == {'d': 4} and second == {'a': 1, 'c': 3} and third == {'b': 2}
    assert outer.observation == {} and inner.observation == {}


def test_scope_is_left_when_the_block_raises():
    rep = reporter.Reporter()
    with pytest.raises(RuntimeError), rep.scope({}):
        raise RuntimeError
    reporter.report({'x': 1})  # no reporter is current any more
    with pytest.raises(IndexError):
        reporter.get_current_reporter()


def test_reporters_are_per_thread():
    rep = reporter.Reporter()
    seen = []
    with rep.scope({}):
        thread = threading.Thread(target=lambda: seen.append(len(reporter._get_reporters())))
        thread.start()
        thread.join()
    assert seen == [0]


def test_reported_variables_are_copies_without_graph():
    x = framework.Variable(numpy.array([1., 2.], numpy.float32))
    y = F.sum(x * x)
    observation = {}
    with reporter.Reporter().scope(observation):
        reporter.report({'y': y})
    assert observation['y'] is not y
    assert observation['y'].array is y.array
    assert observation['y'].creator_node is None
    with framework.using_config('keep_graph_on_report', True):
        with reporter.Reporter().scope(observation):
            reporter.report({'y': y})
    assert observation['y'] is y


def test_keep_graph_on_report_defaults_to_false():
    assert framework.config.keep_graph_on_report is False


@pytest.mark.parametrize('device', devices(), ids=str)
def test_summary_mean_and_std(device):
    values = [1.5, 2.0, 4.5, -1.0]
    summary = reporter.Summary()
    for v in values:
        summary.add(device.send(numpy.array(v, numpy.float32)))
    mean, std = summary.make_statistics()
    numpy.testing.assert_allclose(framework.backend.to_cpu(mean), numpy.mean(values),
                                  rtol=1e-6)
    numpy.testing.assert_allclose(framework.backend.to_cpu(std), numpy.std(values), rtol=1e-5)
    numpy.testing.assert_allclose(framework.backend.to_cpu(summary.compute_mean()),
                                  numpy.mean(values), rtol=1e-6)


def test_summary_weights():
    summary = reporter.Summary()
    summary.add(1.0, weight=3)
    summary.add(5.0, weight=1)
    assert summary.compute_mean() == pytest.approx(2.0)
    mean, std = summary.make_statistics()
    assert std == pytest.approx(numpy.sqrt((3 * 1 + 25) / 4 - 4))


def test_dict_summary_keeps_scalars_only_and_weights_tuples():
    summary = reporter.DictSummary()
    summary.add({'a': 1.0, 'b': numpy.array(2., numpy.float32), 'vec': numpy.ones(3),
                 'var': framework.Variable(numpy.array(4., numpy.float32)), 'text': 'x',
                 'w': (numpy.float32(2.0), 3)})
    summary.add({'a': 3.0, 'w': (framework.Variable(numpy.array(6., numpy.float32)),
                                 framework.Variable(numpy.array(1., numpy.float32)))})
    means = summary.compute_mean()
    assert sorted(means) == ['a', 'b', 'var', 'w']
    assert means['a'] == 2.0 and means['b'] == 2.0 and means['var'] == 4.0
    assert means['w'] == pytest.approx((2 * 3 + 6) / 4)
    stats = summary.make_statistics()
    assert sorted(stats) == ['a', 'a.std', 'b', 'b.std', 'var', 'var.std', 'w', 'w.std']
    assert stats['a.std'] == pytest.approx(1.0)


def test_dict_summary_rejects_a_non_scalar_weight():
    with pytest.raises(ValueError, match="weight given to 'k'"):
        reporter.DictSummary().add({'k': (1.0, numpy.ones(2))})


def _round_trip(summary, fresh):
    saver = DictionarySerializer()
    summary.serialize(saver)
    fresh.serialize(NpzDeserializer(saver.target))
    return saver.target


def test_dict_summary_serializes_with_chainer_keys_and_resumes_exactly():
    summary = reporter.DictSummary()
    for v in (0.1, 0.7, 0.35):
        summary.add({'loss': numpy.float32(v), 'n': (numpy.float32(v), 0.5)})
    fresh = reporter.DictSummary()
    target = _round_trip(summary, fresh)
    assert sorted(target) == ['_names', '_summaries/0/_n', '_summaries/0/_x',
                              '_summaries/0/_x2', '_summaries/1/_n', '_summaries/1/_x',
                              '_summaries/1/_x2']
    for d in (summary, fresh):
        d.add({'loss': numpy.float32(0.2), 'n': (numpy.float32(0.9), 0.5)})
    for key in ('loss', 'n'):
        a, b = summary.compute_mean()[key], fresh.compute_mean()[key]
        assert type(a) is type(b) and a == b


def test_dict_summary_without_saved_names_warns():
    fresh = reporter.DictSummary()
    with pytest.warns(UserWarning, match='names of statistics'):
        fresh.serialize(NpzDeserializer({}))
    assert fresh.compute_mean() == {}


def test_summary_without_saved_sums_warns_and_keeps_its_state():
    summary = reporter.Summary()
    summary.add(2.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        summary.serialize(NpzDeserializer({}))
    assert any('previous statistics' in str(w.message) for w in caught)
    assert summary.compute_mean() == 2.0


def test_framework_exports_the_reporter_names():
    assert framework.report is reporter.report
    assert framework.Reporter is reporter.Reporter
    assert framework.DictSummary is reporter.DictSummary
    assert framework.report_scope is reporter.report_scope


def test_dict_summary_load_of_a_file_without_names_warns_and_starts_empty(tmp_path):
    path = tmp_path / 'old.npz'
    numpy.savez(path, dummy=0)  # a snapshot of a version that saved nothing
    summary = reporter.DictSummary()
    summary.add({'a': 3.})
    with pytest.warns(UserWarning, match='names of statistics are not saved'):
        framework.serializers.load_npz(str(path), summary)
    summary.add({'b': 2.})
    assert summary.compute_mean() == {'b': 2.}

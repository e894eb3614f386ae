"""Evaluator: means over a validation pass, in test mode without graphs."""

import io

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import iterators, reporter
from framework.datasets import TupleDataset
from framework.testing import devices
from framework.training import extensions
from framework.training.extensions.evaluator import _IteratorProgress


class Probe(framework.Chain):
    """Reports the mean of x and records the configuration it ran in."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(2, 1)
        self.seen = []

    def forward(self, x, t):
        loss = F.mean_squared_error(self.fc(x), t)
        self.seen.append((framework.config.train, framework.config.enable_backprop,
                          loss.creator_node is None, len(x)))
        reporter.report({'x_mean': F.mean(x), 'loss': loss}, self)
        reporter.report({'n': len(x)}, self.fc)
        return loss


def _data(n=5):
    x = numpy.arange(2 * n, dtype=numpy.float32).reshape(n, 2)
    return TupleDataset(x, x.sum(axis=1, keepdims=True))


def _evaluator(**kwargs):
    it = iterators.SerialIterator(_data(), 2, repeat=False, shuffle=False)
    return extensions.Evaluator(it, Probe(), **kwargs)


def test_means_in_test_mode_without_graph():
    evaluator = _evaluator()
    evaluator.name = 'validation'
    result = evaluator()
    x = numpy.arange(10, dtype=numpy.float32).reshape(5, 2)
    batch_means = [x[:2].mean(), x[2:4].mean(), x[4:].mean()]
    assert sorted(result) == ['validation/main/fc/n', 'validation/main/loss',
                              'validation/main/x_mean']
    assert float(result['validation/main/x_mean']) == pytest.approx(numpy.mean(batch_means))
    assert result['validation/main/fc/n'] == pytest.approx(5 / 3)
    target = evaluator.get_target('main')
    assert target.seen == [(False, False, True, 2), (False, False, True, 2),
                           (False, False, True, 1)]
    assert framework.config.train is True


def test_repeated_calls_reset_the_iterator():
    evaluator = _evaluator()
    first, second = evaluator(), evaluator()
    assert first == second and len(evaluator.get_target('main').seen) == 6


def test_in_a_trainer_reports_with_the_extension_name(make_trainer):
    trainer = make_trainer((2, 'epoch'), iter_per_epoch=1)
    seen = []
    trainer.extend(_evaluator())
    trainer.extend(lambda t: seen.append(sorted(t.observation)), name='read')
    trainer.run()
    assert seen[-1] == ['validation/main/fc/n', 'validation/main/loss',
                        'validation/main/x_mean']


def test_eval_hook_eval_func_and_dicts():
    calls = []
    probe = Probe()
    it = iterators.SerialIterator(_data(), 5, repeat=False, shuffle=False)
    evaluator = extensions.Evaluator(
        {'main': it}, {'main': probe, 'other': L.Linear(1, 1)},
        eval_hook=lambda e: calls.append('hook'),
        eval_func=lambda x, t: calls.append(x.shape))
    assert evaluator() == {}
    assert calls == ['hook', (5, 2)]
    assert evaluator.get_iterator('main') is it
    assert sorted(evaluator.get_all_targets()) == ['main', 'other']
    assert evaluator.get_all_iterators() == {'main': it}


@pytest.mark.parametrize('device', devices(), ids=str)
def test_device(device):
    evaluator = _evaluator(device=device)
    evaluator.get_target('main').to_device(device)
    result = evaluator()
    assert framework.backend.get_device_from_array(result['main/loss']) == device


def test_repeating_iterator_warns():
    it = iterators.SerialIterator(_data(), 2)
    with pytest.warns(UserWarning, match="iterator 'main' repeats"):
        extensions.Evaluator(it, Probe())


def test_progress_bar(capsys):
    evaluator = _evaluator(progress_bar=True)
    evaluator()
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3
    assert out[0].startswith('validation 40.00%, 2 / 5 examples, ')
    assert out[-1].startswith('validation 100.00%, ')


def test_finalize_finalizes_the_iterators():
    evaluator = _evaluator()
    finalized = []
    evaluator.get_iterator('main').finalize = lambda: finalized.append(True)
    evaluator.finalize()
    assert finalized == [True]


def test_terminal_progress_bar():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    it = iterators.SerialIterator(_data(), 2, repeat=False, shuffle=False)
    out = Terminal()
    progress = _IteratorProgress(it)
    progress._out = out
    next(it)
    progress.update()
    progress.close()
    text = out.getvalue()
    assert text.startswith('\033[Jvalidation [####################') and '40.00%' in text
    assert text.endswith('\033[3A\033[J')

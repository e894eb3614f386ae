"""LogReport: interval means written to a JSON log, atomically, and resumable."""

import json

import numpy
import pytest

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import extensions


def _values(iteration):
    return {'loss': numpy.float32(iteration), 'acc': iteration * 0.5, 'vec': numpy.ones(2)}


def test_entries_are_interval_means(make_trainer, report_values):
    trainer = make_trainer((6, 'iteration'), iter_per_epoch=3)
    trainer.extend(report_values(_values))
    log_report = extensions.LogReport()
    trainer.extend(log_report)
    trainer.run()
    log = log_report.log
    assert [(e['epoch'], e['iteration']) for e in log] == [(1, 3), (2, 6)]
    assert [e['loss'] for e in log] == [2.0, 5.0]
    assert [e['acc'] for e in log] == [1.0, 2.5]
    assert all(isinstance(e['elapsed_time'], float) for e in log)
    assert sorted(log[0]) == ['acc', 'elapsed_time', 'epoch', 'iteration', 'loss']
    path = trainer.out + '/log'
    with open(path) as f:
        text = f.read()
    assert json.loads(text) == log
    assert text == json.dumps(log, indent=4)


def test_keys_trigger_postprocess_and_filename(make_trainer, report_values, tmp_path):
    trainer = make_trainer((4, 'iteration'))
    trainer.extend(report_values(_values))

    def postprocess(entry):
        entry['twice'] = 2 * entry['loss']
        del entry['elapsed_time']

    log_report = extensions.LogReport(keys=['loss'], trigger=(2, 'iteration'),
                                      postprocess=postprocess, filename='log_{iteration}')
    trainer.extend(log_report)
    trainer.run()
    assert log_report.log == [
        {'loss': 1.5, 'epoch': 0, 'iteration': 2, 'twice': 3.0},
        {'loss': 3.5, 'epoch': 0, 'iteration': 4, 'twice': 7.0}]
    names = sorted(p.name for p in (tmp_path / 'result').iterdir())
    assert names == ['log_2', 'log_4']  # no temporary file is left behind


def test_log_name_alias_and_no_file(make_trainer, report_values, tmp_path):
    trainer = make_trainer((1, 'iteration'))
    trainer.extend(report_values(_values))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration'), log_name='old'))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration'), log_name=None),
                   name='nofile')
    trainer.run()
    assert sorted(p.name for p in (tmp_path / 'result').iterdir()) == ['old']


def test_failed_write_keeps_the_previous_log(make_trainer, report_values, tmp_path,
                                            monkeypatch):
    trainer = make_trainer((2, 'iteration'))
    trainer.extend(report_values(_values))
    log_report = extensions.LogReport(trigger=(1, 'iteration'))
    trainer.extend(log_report)

    original = json.dumps
    calls = []

    def failing_dumps(obj, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError('disk full')
        return original(obj, **kwargs)

    monkeypatch.setattr(json, 'dumps', failing_dumps)
    with pytest.raises(OSError, match='disk full'):
        trainer.run()
    with open(tmp_path / 'result' / 'log') as f:
        assert len(json.load(f)) == 1
    assert sorted(p.name for p in (tmp_path / 'result').iterdir()) == ['log']


def test_resume_continues_the_same_log(make_trainer, report_values):
    def run(trainer, log_report):
        trainer.extend(report_values(_values))
        trainer.extend(log_report)
        trainer.run()

    reference = extensions.LogReport(trigger=(4, 'iteration'), postprocess=_no_time)
    run(make_trainer((8, 'iteration')), reference)

    first = extensions.LogReport(trigger=(4, 'iteration'), postprocess=_no_time)
    first_trainer = make_trainer((6, 'iteration'))
    run(first_trainer, first)
    saver = DictionarySerializer()
    first_trainer.serialize(saver)
    assert {'extensions/LogReport/_log', 'extensions/LogReport/_summary/_names',
            'extensions/LogReport/_trigger/previous_iteration'} <= set(saver.target)

    resumed = extensions.LogReport(trigger=(4, 'iteration'), postprocess=_no_time)
    trainer = make_trainer((8, 'iteration'))
    trainer.extend(report_values(_values))
    trainer.extend(resumed)
    trainer.serialize(NpzDeserializer(saver.target))
    trainer.run()
    assert resumed.log == reference.log


def _no_time(entry):
    del entry['elapsed_time']

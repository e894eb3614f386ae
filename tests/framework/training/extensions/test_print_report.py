"""PrintReport: the log as a table, a header first."""

import io

import numpy
import pytest

from framework.serializers import DictionarySerializer, NpzDeserializer
from framework.training import extensions


def _values(iteration):
    return {'main/loss': numpy.float32(iteration) / 4}


def _run(make_trainer, report_values, print_report, log_report=None, stop=4):
    trainer = make_trainer((stop, 'iteration'), iter_per_epoch=2)
    trainer.extend(report_values(_values))
    if log_report is not None:
        trainer.extend(log_report)
    trainer.extend(print_report)
    trainer.run()
    return trainer


def test_prints_a_header_and_a_row_per_log_entry(make_trainer, report_values):
    out = io.StringIO()
    entries = ['epoch', 'main/loss', 'missing', 'a_very_long_entry_name']
    _run(make_trainer, report_values, extensions.PrintReport(entries, out=out),
         extensions.LogReport())
    blank = ' ' * 12 + ' ' * 24  # the 'missing' and the long column
    assert out.getvalue() == (
        'epoch       main/loss   missing     a_very_long_entry_name\n'
        f'1           0.375       {blank}\n'
        f'2           0.875       {blank}\n')


def test_owns_a_log_report_given_as_an_object(make_trainer, report_values):
    out = io.StringIO()
    log_report = extensions.LogReport(trigger=(1, 'iteration'))
    print_report = extensions.PrintReport(['iteration'], log_report=log_report, out=out)
    trainer = _run(make_trainer, report_values, print_report, stop=2)
    assert out.getvalue().splitlines()[1:] == ['1           ', '2           ']
    saver = DictionarySerializer()
    trainer.serialize(saver)
    assert 'extensions/PrintReport/_log_report/_log' in saver.target
    restored_log = extensions.LogReport(trigger=(1, 'iteration'))
    extensions.PrintReport(['iteration'], log_report=restored_log).serialize(
        NpzDeserializer(saver.target, path='extensions/PrintReport/'))
    assert [e['iteration'] for e in restored_log.log] == [1, 2]


def test_terminal_output_erases_a_progress_bar_before_each_row(make_trainer, report_values):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    out = Terminal()
    _run(make_trainer, report_values, extensions.PrintReport(['epoch'], out=out),
         extensions.LogReport(), stop=2)
    assert out.getvalue() == 'epoch     \n\033[J1           \n'


def test_default_stream_is_the_current_stdout(make_trainer, report_values, capsys):
    _run(make_trainer, report_values, extensions.PrintReport(['epoch']),
         extensions.LogReport(), stop=2)
    assert capsys.readouterr().out == 'epoch     \n1           \n'


def test_bad_log_report(make_trainer, report_values):
    with pytest.raises(TypeError, match='log_report must be the name of a LogReport'):
        _run(make_trainer, report_values, extensions.PrintReport(['epoch'], log_report=3,
                                                                 out=io.StringIO()))

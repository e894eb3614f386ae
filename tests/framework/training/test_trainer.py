"""Trainer: the loop, extension registration and order, errors, serialization."""

import numpy
import pytest

from framework import reporter, training
from framework.serializers import DictionarySerializer, NpzDeserializer


class Recorder(training.Extension):
    def __init__(self, log, tag, **attrs):
        self.log, self.tag = log, tag
        for key, value in attrs.items():
            setattr(self, key, value)

    def __call__(self, trainer):
        self.log.append((self.tag, trainer.updater.iteration))

    def initialize(self, trainer):
        self.log.append((self.tag, 'initialize'))

    def finalize(self):
        self.log.append((self.tag, 'finalize'))


def test_loop_runs_until_the_stop_trigger_and_calls_extensions(make_trainer):
    trainer = make_trainer((3, 'iteration'))
    log = []
    trainer.extend(Recorder(log, 'a'))
    trainer.run()
    assert log == [('a', 'initialize'), ('a', 1), ('a', 2), ('a', 3), ('a', 'finalize')]
    assert trainer.updater.iteration == 3
    assert trainer.updater.finalized


def test_extensions_run_by_priority_then_registration(make_trainer):
    trainer = make_trainer((1, 'iteration'))
    log = []
    trainer.extend(Recorder(log, 'reader'))
    trainer.extend(Recorder(log, 'writer', priority=training.PRIORITY_WRITER))
    trainer.extend(Recorder(log, 'reader2'))
    trainer.extend(Recorder(log, 'editor'), priority=training.PRIORITY_EDITOR)
    trainer.run()
    calls = [tag for tag, what in log if what == 1]
    assert calls == ['writer', 'editor', 'reader', 'reader2']


def test_triggers_choose_the_iterations(make_trainer):
    trainer = make_trainer((6, 'iteration'), iter_per_epoch=3)
    log = []
    trainer.extend(Recorder(log, 'every2'), trigger=(2, 'iteration'))
    trainer.extend(Recorder(log, 'epoch', trigger=(1, 'epoch')))
    trainer.run()
    assert [i for tag, i in log if tag == 'every2' and isinstance(i, int)] == [2, 4, 6]
    assert [i for tag, i in log if tag == 'epoch' and isinstance(i, int)] == [3, 6]


def test_names_default_and_duplicates_get_suffixes(make_trainer):
    trainer = make_trainer()

    @training.make_extension()
    def my_ext(trainer):
        pass

    trainer.extend(Recorder([], 'x'))
    trainer.extend(Recorder([], 'y'))
    trainer.extend(my_ext)
    trainer.extend(lambda trainer: None, name='lam')
    trainer.extend(Recorder([], 'z'), name='custom')
    assert list(trainer._extensions) == ['Recorder', 'Recorder_1', 'my_ext', 'lam', 'custom']
    assert trainer.get_extension('Recorder_1').tag == 'y'
    with pytest.raises(ValueError, match="no extension named 'nope'"):
        trainer.get_extension('nope')
    with pytest.raises(ValueError, match="'training' is reserved"):
        trainer.extend(lambda trainer: None, name='training')


def test_extension_without_a_name_is_refused(make_trainer):
    class Nameless:
        def __call__(self, trainer):
            pass

    nameless = Nameless()
    with pytest.raises(TypeError, match='has no name'):
        make_trainer().extend(nameless)


def test_call_before_training(make_trainer):
    trainer = make_trainer((2, 'iteration'))
    log = []
    trainer.extend(Recorder(log, 'a'), call_before_training=True)
    trainer.run()
    assert log == [('a', 'initialize'), ('a', 0), ('a', 1), ('a', 2), ('a', 'finalize')]


def test_finished_trigger_skips_initialize(make_trainer):
    trainer = make_trainer((1, 'iteration'))
    log = []
    done = training.triggers.ManualScheduleTrigger(1, 'iteration')
    done.finished = True
    trainer.extend(Recorder(log, 'a'), trigger=done)
    trainer.run()
    assert ('a', 'initialize') not in log


def test_observation_and_reporter_observers(make_trainer):
    trainer = make_trainer((2, 'iteration'))
    target = trainer.updater.get_optimizer('main').target
    seen = []

    @training.make_extension(priority=training.PRIORITY_WRITER)
    def writer(trainer):
        reporter.report({'loss': trainer.updater.iteration}, target)

    trainer.extend(writer)
    trainer.extend(lambda trainer: seen.append(dict(trainer.observation)), name='reader')
    trainer.run()
    assert seen == [{'main/loss': 1}, {'main/loss': 2}]
    assert trainer.reporter._observer_names[id(target)] == 'main'


def test_error_calls_on_error_and_finalize_and_reraises(make_trainer, capsys):
    trainer = make_trainer((5, 'iteration'))
    log = []

    class Failing(Recorder):
        def __call__(self, trainer):
            if trainer.updater.iteration == 2:
                raise ValueError('boom')

        def on_error(self, trainer, exc, tb):
            log.append(('on_error', str(exc)))
            raise RuntimeError('handler fails too')

    trainer.extend(Failing(log, 'f'))
    with pytest.raises(ValueError, match='boom'):
        trainer.run()
    assert ('on_error', 'boom') in log and ('f', 'finalize') in log
    assert trainer.updater.finalized
    err = capsys.readouterr().err
    assert 'Exception in main training loop: boom' in err
    assert 'Exception in error handler: handler fails too' in err


def test_every_finalize_runs_and_the_first_error_is_raised(make_trainer, capsys):
    trainer = make_trainer((2, 'iteration'))
    log = []

    class FailingFinalize(Recorder):
        def finalize(self):
            super().finalize()
            raise OSError(f'{self.tag} cannot finalize')

    trainer.extend(FailingFinalize(log, 'a', priority=2))
    trainer.extend(FailingFinalize(log, 'b', priority=1))
    trainer.extend(Recorder(log, 'c', priority=0))
    with pytest.raises(OSError, match='a cannot finalize'):
        trainer.run()
    assert [entry for entry in log if entry[1] == 'finalize'] == [
        ('a', 'finalize'), ('b', 'finalize'), ('c', 'finalize')]
    assert trainer.updater.finalized
    assert 'Exception in finalize: b cannot finalize' in capsys.readouterr().err


def test_run_only_once_and_elapsed_time(make_trainer):
    trainer = make_trainer((1, 'iteration'))
    with pytest.raises(RuntimeError, match='not been started'):
        _ = trainer.elapsed_time
    trainer.run()
    assert trainer.elapsed_time >= 0
    assert trainer.elapsed_time == trainer.elapsed_time  # frozen once done
    with pytest.raises(RuntimeError, match='only once'):
        trainer.run()


def test_is_before_training(make_trainer):
    trainer = make_trainer((1, 'iteration'))
    assert trainer.is_before_training
    trainer.run()
    assert not trainer.is_before_training


def test_out_directory_is_made(make_trainer, tmp_path):
    trainer = make_trainer((1, 'iteration'), out=tmp_path / 'a' / 'b')
    trainer.run()
    assert (tmp_path / 'a' / 'b').is_dir()


class Counter(training.Extension):
    def __init__(self):
        self.count = 0

    def __call__(self, trainer):
        self.count += 1

    def serialize(self, serializer):
        self.count = int(serializer('count', self.count))


def test_serialize_keys_and_round_trip(make_trainer):
    trainer = make_trainer((3, 'iteration'))
    trainer.extend(Counter(), trigger=(1, 'iteration'))
    trainer.run()
    saver = DictionarySerializer()
    trainer.serialize(saver)
    assert sorted(k for k in saver.target if ':main' not in k) == [
        '_snapshot_elapsed_time', 'extension_triggers/Counter/previous_epoch_detail',
        'extension_triggers/Counter/previous_iteration', 'extensions/Counter/count',
        'stop_trigger/previous_epoch_detail', 'stop_trigger/previous_iteration',
        'updater/iteration']
    assert saver.target['extensions/Counter/count'] == 3

    resumed = make_trainer((5, 'iteration'))
    counter = Counter()
    resumed.extend(counter, trigger=(1, 'iteration'))
    resumed.serialize(NpzDeserializer(saver.target))
    assert resumed.updater.iteration == 3 and counter.count == 3
    assert resumed._snapshot_elapsed_time == float(saver.target['_snapshot_elapsed_time'])
    resumed.run()
    assert resumed.updater.iteration == 5 and counter.count == 5
    assert resumed.elapsed_time >= numpy.float64(saver.target['_snapshot_elapsed_time'])

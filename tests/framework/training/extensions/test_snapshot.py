"""snapshot and snapshot_object: atomic files, n_retains, autoload of the latest whole one."""

import os
import zipfile

import numpy
import pytest

import framework.links as L
from framework import optimizers, serializers, training
from framework.serializers import NpzMismatchError
from framework.training import extensions
from framework.training.extensions._snapshot import _serialize


def _files(trainer):
    return sorted(os.listdir(trainer.out))


def _trainer(make_trainer, stop=4, iter_per_epoch=2, **kwargs):
    optimizer = optimizers.MomentumSGD(lr=0.1).setup(L.Linear(2, 3))
    return make_trainer((stop, 'iteration'), iter_per_epoch=iter_per_epoch,
                        optimizer=optimizer, **kwargs)


def test_snapshot_of_the_trainer_every_epoch(make_trainer):
    trainer = _trainer(make_trainer)
    ext = extensions.snapshot()
    assert ext.trigger == (1, 'epoch') and ext.priority == training.PRIORITY_SNAPSHOT
    trainer.extend(ext)
    trainer.run()
    assert _files(trainer) == ['snapshot_iter_2', 'snapshot_iter_4']
    with numpy.load(os.path.join(trainer.out, 'snapshot_iter_2')) as npz:
        assert int(npz['updater/iteration']) == 2
        assert {'updater/model:main/W', 'updater/optimizer:main/W/v', 'stop_trigger/'
                'previous_iteration', '_snapshot_elapsed_time'} <= set(npz.files)


def test_snapshot_object_and_custom_savefun(make_trainer):
    trainer = _trainer(make_trainer, stop=2)
    model = trainer.updater.get_optimizer('main').target
    saved = {}

    def dict_savefun(path, target):
        saved.update(target)
        numpy.savez(path, **target)

    trainer.extend(extensions.snapshot_object(model, 'model_{.updater.iteration}'),
                   trigger=(1, 'iteration'))
    trainer.extend(extensions.snapshot_object(model, 'raw_{.updater.iteration}.npz',
                                              savefun=dict_savefun), trigger=(2, 'iteration'))
    trainer.extend(extensions.snapshot(filename=lambda t: f'fn_{t.updater.iteration}'),
                   trigger=(2, 'iteration'))
    trainer.run()
    assert _files(trainer) == ['fn_2', 'model_1', 'model_2', 'raw_2.npz']
    loaded = L.Linear(2, 3)
    serializers.load_npz(os.path.join(trainer.out, 'model_2'), loaded)
    numpy.testing.assert_array_equal(loaded.W.array, model.W.array)
    assert sorted(saved) == ['W', 'b']


def test_condition_and_argument_errors(make_trainer):
    trainer = _trainer(make_trainer, stop=2)
    trainer.extend(extensions.snapshot(condition=lambda: False), trigger=(1, 'iteration'))
    trainer.run()
    assert _files(trainer) == []
    with pytest.raises(TypeError, match='savefun and writer cannot be given together'):
        extensions.snapshot(savefun=serializers.save_npz,
                            writer=extensions.snapshot_writers.SimpleWriter())
    with pytest.raises(TypeError, match='autoload needs filename to be a format string'):
        extensions.snapshot(filename=lambda t: 'x', autoload=True)


def test_the_serialized_target_is_a_copy():
    model = L.Linear(2, 3)
    serialized = _serialize(model)
    before = serialized['W'].copy()
    model.W.array += 1
    numpy.testing.assert_array_equal(serialized['W'], before)


def test_n_retains_keeps_the_highest_iterations(make_trainer):
    trainer = _trainer(make_trainer, stop=12)
    trainer.extend(extensions.snapshot(n_retains=2), trigger=(3, 'iteration'))
    trainer.extend(extensions.snapshot_object(trainer.updater.get_optimizer('main').target,
                                              'model_{.updater.iteration}'),
                   trigger=(3, 'iteration'))
    trainer.run()
    # 'snapshot_iter_9' sorts after 'snapshot_iter_12' as text, not as an iteration
    assert _files(trainer) == ['model_12', 'model_3', 'model_6', 'model_9',
                               'snapshot_iter_12', 'snapshot_iter_9']


def test_failed_save_leaves_nothing_behind(make_trainer):
    trainer = _trainer(make_trainer, stop=1)

    def failing(path, target):
        with open(path, 'wb') as f:
            f.write(b'half')
        raise OSError('disk full')

    trainer.extend(extensions.snapshot(savefun=failing), trigger=(1, 'iteration'))
    with pytest.raises(OSError, match='disk full'):
        trainer.run()
    assert _files(trainer) == []


def test_snapshot_on_error(make_trainer):
    trainer = _trainer(make_trainer, stop=5)

    @training.make_extension()
    def fail(trainer):
        if trainer.updater.iteration == 3:
            raise RuntimeError('fail')

    trainer.extend(fail)
    trainer.extend(extensions.snapshot(snapshot_on_error=True), trigger=(10, 'iteration'))
    with pytest.raises(RuntimeError):
        trainer.run()
    assert _files(trainer) == ['snapshot_iter_3']


def _train_and_snapshot(make_trainer, out, stop):
    trainer = _trainer(make_trainer, stop=stop, out=out)
    model = trainer.updater.get_optimizer('main').target
    model.W.array[...] = numpy.arange(6, dtype=numpy.float32).reshape(3, 2) * stop
    trainer.extend(extensions.snapshot(), trigger=(1, 'iteration'))
    trainer.run()
    return trainer


def test_autoload_resumes_from_the_highest_iteration(make_trainer, tmp_path):
    out = tmp_path / 'run'
    _train_and_snapshot(make_trainer, out, stop=3)
    # an older run's snapshot written later must not win: the order is by iteration
    os.utime(out / 'snapshot_iter_1', ns=(2 ** 62, 2 ** 62))
    trainer = _trainer(make_trainer, stop=4, out=out)
    trainer.extend(extensions.snapshot(autoload=True), trigger=(1, 'iteration'))
    iterations = []
    trainer.extend(lambda t: iterations.append(t.updater.iteration), name='record')
    with pytest.warns(UserWarning, match='was not saved'):
        trainer.run()  # 'record' is new: its trigger is not in the snapshot
    assert iterations == [4]
    model = trainer.updater.get_optimizer('main').target
    numpy.testing.assert_array_equal(model.W.array,
                                     numpy.arange(6, dtype=numpy.float32).reshape(3, 2) * 3)


@pytest.mark.parametrize('damage', ['truncated', 'garbage', 'bad_member'])
def test_autoload_skips_a_snapshot_that_cannot_be_read_whole(make_trainer, tmp_path, damage):
    out = tmp_path / 'run'
    _train_and_snapshot(make_trainer, out, stop=2)
    data = (out / 'snapshot_iter_2').read_bytes()
    bad = out / 'snapshot_iter_7'
    if damage == 'truncated':
        bad.write_bytes(data[:len(data) // 2])
    elif damage == 'garbage':
        bad.write_bytes(b'\0' * 100)
    else:
        with zipfile.ZipFile(bad, 'w') as z:
            z.writestr('updater/iteration.npy', b'not an npy file')
    trainer = _trainer(make_trainer, stop=3, out=out)
    trainer.extend(extensions.snapshot(autoload=True), trigger=(10, 'iteration'))
    with pytest.warns(UserWarning, match='snapshot_iter_7, which cannot be read whole'):
        trainer.run()
    assert trainer.updater.iteration == 3  # resumed from 2, not from 7


def test_autoload_without_snapshots_starts_afresh(make_trainer, tmp_path):
    trainer = _trainer(make_trainer, stop=1, out=tmp_path / 'new')
    trainer.extend(extensions.snapshot(autoload=True))
    trainer.run()
    assert trainer.updater.iteration == 1


def test_autoload_of_a_snapshot_that_does_not_fit_raises(make_trainer, tmp_path):
    out = tmp_path / 'run'
    _train_and_snapshot(make_trainer, out, stop=1)
    optimizer = optimizers.MomentumSGD().setup(L.Linear(2, 4))
    trainer = make_trainer((2, 'iteration'), optimizer=optimizer, out=out)
    trainer.extend(extensions.snapshot(autoload=True))
    with pytest.raises(NpzMismatchError, match='shape'):
        trainer.run()


def test_autoload_happens_before_the_other_initializers(make_trainer, tmp_path):
    out = tmp_path / 'run'
    first = _trainer(make_trainer, stop=3, out=out)
    first.extend(extensions.ExponentialShift('lr', 0.5), trigger=(1, 'iteration'))
    first.extend(extensions.snapshot(), trigger=(1, 'iteration'))
    first.run()
    resumed = _trainer(make_trainer, stop=4, out=out)
    lrs = []

    class RecordLr(training.Extension):
        priority = -1000  # initialized after the shift

        def initialize(self, trainer):
            lrs.append(trainer.updater.get_optimizer('main').lr)

        def __call__(self, trainer):
            pass

    resumed.extend(extensions.ExponentialShift('lr', 0.5), trigger=(1, 'iteration'))
    resumed.extend(RecordLr())
    resumed.extend(extensions.snapshot(autoload=True), trigger=(1, 'iteration'))
    with pytest.warns(UserWarning, match='was not saved'):
        resumed.run()
    assert lrs == [0.1 * 0.5 ** 3]

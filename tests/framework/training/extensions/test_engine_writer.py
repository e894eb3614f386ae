"""EngineWriter: snapshots written by the dependency engine, in order, waited for by the
trainer, with their errors raised."""

import os
import threading
import time

import numpy
import pytest

import framework.links as L
from framework import optimizers, serializers
from framework.engine import NaiveEngine, ThreadedEngine
from framework.training import extensions
from framework.training.extensions import snapshot_writers
from framework.training.extensions._snapshot import _serialize


@pytest.fixture(params=['naive', 'threaded'])
def engine(request):
    eng = NaiveEngine() if request.param == 'naive' else ThreadedEngine(num_cpu_workers=4)
    yield eng
    eng.shutdown()  # raises an error no wait raised


class _Saves:
    """A saving function that records the order of the saves and how many overlapped; it
    waits ``delay`` seconds before saving and fails for the names in ``failing``."""

    def __init__(self, delay=0.0, failing=()):
        self.delay, self.failing = delay, set(failing)
        self.names = []
        self.active = self.max_active = 0

    def __call__(self, path, target):
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        try:
            time.sleep(self.delay)
            name = os.path.basename(path)
            if name in self.failing:
                with open(path, 'wb') as f:
                    f.write(b'half')
                raise OSError(f'disk full writing {name}')
            serializers.save_npz(path, target)
            self.names.append(name)
        finally:
            self.active -= 1


def _trainer(make_trainer, stop=6):
    optimizer = optimizers.MomentumSGD(lr=0.1).setup(L.Linear(2, 3))
    return make_trainer((stop, 'iteration'), iter_per_epoch=2, optimizer=optimizer)


def test_saves_run_in_the_background_one_at_a_time_in_order(tmp_path):
    engine = ThreadedEngine(num_cpu_workers=4)
    release = threading.Event()
    saves = _Saves()

    def gated(path, target):
        release.wait(5)
        saves(path, target)

    writer = snapshot_writers.EngineWriter(gated, engine=engine)
    for i in range(4):
        writer(f'snap_{i}', str(tmp_path), _serialize(L.Linear(2, 3)))
    assert saves.names == []  # the calls returned while the first save waits
    release.set()
    writer.finalize()
    assert saves.names == ['snap_0', 'snap_1', 'snap_2', 'snap_3'] and saves.max_active == 1
    assert sorted(os.listdir(tmp_path)) == ['snap_0', 'snap_1', 'snap_2', 'snap_3']
    engine.shutdown()


def test_trainer_output_is_complete_when_run_returns(make_trainer, engine):
    trainer = _trainer(make_trainer)
    model = trainer.updater.get_optimizer('main').target
    saves = _Saves(delay=0.01)
    writer = snapshot_writers.EngineWriter(saves, engine=engine)
    trainer.extend(extensions.snapshot(writer=writer, n_retains=2), trigger=(1, 'iteration'))
    trainer.run()
    assert saves.names == [f'snapshot_iter_{i}' for i in range(1, 7)]
    assert sorted(os.listdir(trainer.out)) == ['snapshot_iter_5', 'snapshot_iter_6']
    loaded = _trainer(make_trainer)
    serializers.load_npz(os.path.join(trainer.out, 'snapshot_iter_6'), loaded)
    assert loaded.updater.iteration == 6
    numpy.testing.assert_array_equal(
        loaded.updater.get_optimizer('main').target.W.array, model.W.array)


def test_failed_save_is_raised_by_the_next_snapshot(make_trainer, engine):
    trainer = _trainer(make_trainer)
    saves = _Saves(failing={'snapshot_iter_2'})
    writer = snapshot_writers.EngineWriter(saves, engine=engine)
    trainer.extend(extensions.snapshot(writer=writer), trigger=(2, 'iteration'))
    with pytest.raises(OSError, match='disk full writing snapshot_iter_2') as info:
        trainer.run()
    assert "EngineWriter('snapshot_iter_2')" in str(info.value)
    # The naive engine has failed by the next snapshot; the threaded one most likely has, else
    # the snapshot of iteration 6 or the end of the training raises.
    stopped_at = {4} if isinstance(engine, NaiveEngine) else {4, 6}
    assert trainer.updater.iteration in stopped_at and trainer.updater.finalized
    assert os.listdir(trainer.out) == []  # the half-written file never got its name


def test_failed_last_save_is_raised_by_run(make_trainer, engine):
    trainer = _trainer(make_trainer)
    writer = snapshot_writers.EngineWriter(_Saves(delay=0.01, failing={'snapshot_iter_6'}),
                                           engine=engine)
    trainer.extend(extensions.snapshot(writer=writer), trigger=(3, 'iteration'))
    with pytest.raises(OSError, match='disk full writing snapshot_iter_6'):
        trainer.run()
    assert sorted(os.listdir(trainer.out)) == ['snapshot_iter_3']
    assert trainer.updater.finalized


def test_failed_save_after_a_failed_loop_goes_to_stderr(make_trainer, engine, capsys):
    trainer = _trainer(make_trainer)
    writer = snapshot_writers.EngineWriter(_Saves(failing={'snapshot_iter_3'}), engine=engine)

    def fail(trainer):
        if trainer.updater.iteration == 3:
            raise RuntimeError('loop fails')

    trainer.extend(fail, name='fail', priority=-1000)  # after the snapshot
    trainer.extend(extensions.snapshot(writer=writer), trigger=(3, 'iteration'))
    with pytest.raises(RuntimeError, match='loop fails'):
        trainer.run()
    assert 'Exception in finalize: ' in capsys.readouterr().err
    assert trainer.updater.finalized


def test_bad_engine_argument():
    with pytest.raises(TypeError, match='engine must be an Engine or None, but got str'):
        snapshot_writers.EngineWriter(engine='threaded')

"""Snapshot writers: the file appears whole under its name, from any thread."""

import multiprocessing
import os
import queue
import threading
import zipfile

import numpy
import pytest

import framework.links as L
from framework import serializers
from framework.training import extensions
from framework.training.extensions import snapshot_writers
from framework.training.extensions._snapshot import _serialize


def _target():
    return _serialize(L.Linear(2, 3))


@pytest.mark.parametrize('make_writer', [
    snapshot_writers.SimpleWriter,
    snapshot_writers.ThreadWriter,
    snapshot_writers.ProcessWriter,
    snapshot_writers.ThreadQueueWriter,
    snapshot_writers.ProcessQueueWriter,
    snapshot_writers.EngineWriter,
], ids=lambda w: w.__name__)
def test_writers_write_loadable_files(tmp_path, make_writer):
    writer = make_writer()
    target = _target()
    for i in range(3):
        writer(f'snap_{i}', str(tmp_path), target)
    writer.finalize()
    assert sorted(os.listdir(tmp_path)) == ['snap_0', 'snap_1', 'snap_2']
    loaded = L.Linear(2, 3)
    serializers.load_npz(tmp_path / 'snap_2', loaded)
    numpy.testing.assert_array_equal(loaded.W.array, target['W'])


def test_thread_writer_does_not_block_the_caller(tmp_path):
    release = threading.Event()
    started = threading.Event()

    def slow_save(path, target):
        started.set()
        release.wait(5)
        serializers.save_npz(path, target)

    writer = snapshot_writers.ThreadWriter(savefun=slow_save)
    writer('snap', str(tmp_path), _target())
    assert started.wait(5)
    assert not (tmp_path / 'snap').exists()
    release.set()
    writer.finalize()
    assert (tmp_path / 'snap').exists()


def test_queue_writer_runs_cleanup_hooks(make_trainer):
    trainer = make_trainer((6, 'iteration'))
    writer = snapshot_writers.ThreadQueueWriter()
    trainer.extend(extensions.snapshot(writer=writer, n_retains=2), trigger=(1, 'iteration'))
    trainer.run()
    assert sorted(os.listdir(trainer.out)) == ['snapshot_iter_5', 'snapshot_iter_6']


def test_save_keeps_the_keyword_arguments(tmp_path):
    writer = snapshot_writers.SimpleWriter(compression=False)
    writer('plain', str(tmp_path), _target())
    with zipfile.ZipFile(tmp_path / 'plain') as z:
        assert {info.compress_type for info in z.infolist()} == {zipfile.ZIP_STORED}


def test_writer_base_is_abstract(tmp_path):
    with pytest.raises(NotImplementedError):
        snapshot_writers.Writer()('x', str(tmp_path), {})


@pytest.mark.parametrize('make_writer, worker_type', [
    (snapshot_writers.ThreadWriter, threading.Thread),
    (snapshot_writers.ProcessWriter, multiprocessing.Process),
])
def test_standard_writers_make_unstarted_workers(tmp_path, make_writer, worker_type):
    worker = make_writer().create_worker('snap', str(tmp_path), _target())
    assert isinstance(worker, worker_type)
    assert not worker.is_alive()


@pytest.mark.parametrize('make_writer', [
    snapshot_writers.StandardWriter, snapshot_writers.QueueWriter,
], ids=lambda w: w.__name__)
def test_worker_and_queue_writer_bases_are_abstract(tmp_path, make_writer):
    with pytest.raises(NotImplementedError):
        make_writer()('x', str(tmp_path), {})


def test_queue_writer_consume_runs_tasks_until_none():
    done = []
    q = queue.Queue()
    for name in ('a', 'b'):
        q.put((lambda *args: done.append(args), name, 'out', 'target'))
    q.put(None)
    snapshot_writers.ThreadQueueWriter.consume(None, q)
    assert done == [('a', 'out', 'target'), ('b', 'out', 'target')]
    q.join()  # every item, None included, was marked done

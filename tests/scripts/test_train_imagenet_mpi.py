"""train_imagenet.py over MPI: ``mpiexec -n 2`` jobs of a tiny ResNet on shapes, with a
timeout that makes a hang fail the test; skipped where the ``dist`` extra is not installed."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy
import pytest

from framework.testing.mpi import job_env, mpiexec, requires_mpi, run_job

_ROOT = pathlib.Path(__file__).resolve().parents[2]
_SCRIPT = _ROOT / 'scripts' / 'train_imagenet.py'
# A ResNet-14 of a sixteenth the width on 20x20 shapes; 8 training images, so that an epoch of
# 2 processes with batch 4 is one step, as one of 1 process with batch 8.
_TINY = ['--dataset', 'shapes', '--model', 'resnet14', '--base-channels', '4', '--size', '20',
         '--n-train', '8', '--n-val', '8', '--lr', '0.1']
_ENV = job_env(_ROOT)


pytestmark = requires_mpi


def _command(n_process: int | None, out: pathlib.Path, *options: str) -> list[str]:
    """The command line of the script alone (``n_process`` None) or under mpiexec."""
    script = [sys.executable, str(_SCRIPT), *_TINY, '--out', str(out), *options]
    if n_process is None:
        return script
    return [mpiexec(), '-n', str(n_process), *script, '--communicator', 'flat']


def _train(n_process: int | None, out: pathlib.Path, *options: str,
           timeout: float = 120) -> dict[str, numpy.ndarray]:
    """Runs the script to its end; returns the arrays of the model it wrote."""
    command = _command(n_process, out, *options)
    job = run_job(command, _ROOT, _ENV, timeout)
    assert job.returncode == 0, job.stdout
    with numpy.load(out / 'model.npz') as npz:
        return {key: npz[key] for key in npz.files}


def _assert_identical(got: dict, expected: dict) -> None:
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key].tobytes() == expected[key].tobytes(), key


@pytest.mark.slow
def test_two_processes_train_as_one_with_their_union_of_batches(tmp_path):
    options = ['--epoch', '3', '--train-crop', 'center', '--loaderjob', '0']
    alone = _train(None, tmp_path / 'alone', *options, '--batchsize', '8')
    two = _train(2, tmp_path / 'two', *options, '--batchsize', '4', '--multi-node-bn')
    assert two.keys() == alone.keys()
    for key in alone:
        numpy.testing.assert_allclose(two[key], alone[key], rtol=1e-4, atol=1e-5, err_msg=key)
    # Only rank 0 writes the log and the snapshots.
    assert sorted(p.name for p in (tmp_path / 'two').glob('snapshot_*')) == ['snapshot_iter_3']


@pytest.mark.slow
def test_two_process_runs_with_the_same_seed_are_bit_identical(tmp_path):
    options = ['--epoch', '2', '--batchsize', '4', '--loaderjob', '1', '--seed', '3']
    first = _train(2, tmp_path / 'a', *options)
    _assert_identical(_train(2, tmp_path / 'b', *options), first)


@pytest.mark.slow
def test_a_killed_run_resumes_from_its_last_snapshot(tmp_path):
    options = ['--epoch', '6', '--batchsize', '4', '--loaderjob', '1']
    uninterrupted = _train(2, tmp_path / 'once', *options)

    out = tmp_path / 'killed'
    job = subprocess.Popen(_command(2, out, *options), cwd=_ROOT, env=_ENV,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    deadline = time.monotonic() + 120
    while not (out / 'snapshot_iter_2').exists():
        assert job.poll() is None and time.monotonic() < deadline, 'no snapshot of epoch 2'
        time.sleep(0.02)
    os.killpg(job.pid, signal.SIGKILL)
    job.wait()
    assert not (out / 'model.npz').exists(), 'the job ended before it was killed'

    # Started again, every process loads rank 0's last snapshot and the run ends as if whole.
    _assert_identical(_train(2, out, *options), uninterrupted)


def test_communicator_without_mpi4py_names_the_extra(tmp_path, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(_SCRIPT.parent))
    spec = importlib.util.spec_from_file_location('train_imagenet', _SCRIPT)
    train_imagenet = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train_imagenet)
    monkeypatch.setattr(importlib.util, 'find_spec', lambda name: None)
    with pytest.raises(SystemExit):
        train_imagenet.parse_args(['--communicator', 'flat'])
    assert "pip install '.[dist]'" in capsys.readouterr().err

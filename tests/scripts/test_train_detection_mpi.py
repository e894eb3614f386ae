"""train_ssd.py over MPI: ``mpiexec -n 2`` jobs of a tiny SSD300 on shapes, with a timeout that
makes a hang fail the test; skipped where the ``dist`` extra is not installed."""

from __future__ import annotations

import json
import pathlib
import sys

import numpy
import pytest

from framework.testing.mpi import job_env, mpiexec, requires_mpi, run_job

_ROOT = pathlib.Path(__file__).resolve().parents[2]
_SCRIPT = _ROOT / 'scripts' / 'train_ssd.py'
# SSD300 of a sixteenth the width on 64x64 shapes; batches of 4 images over the two processes.
_TINY = ['--dataset', 'shapes', '--base-channels', '4', '--size', '64', '--n-train', '8',
         '--n-val', '6', '--batchsize', '4', '--iteration', '3', '--step', '2',
         '--log-interval', '1', '--loaderjob', '1', '--communicator', 'flat']
_ENV = job_env(_ROOT)

pytestmark = requires_mpi


def _run(out: pathlib.Path, *options: str, timeout: float = 300):
    command = [mpiexec(), '-n', '2', sys.executable, str(_SCRIPT), *_TINY, '--out', str(out),
               *options]
    return run_job(command, _ROOT, _ENV, timeout)


def _model(out: pathlib.Path) -> dict[str, bytes]:
    with numpy.load(out / 'model.npz') as npz:
        return {key: npz[key].tobytes() for key in npz.files}


@pytest.mark.slow
def test_two_processes_train_evaluate_and_repeat_with_a_seed(tmp_path):
    job = _run(tmp_path / 'a', '--seed', '3')
    assert job.returncode == 0, job.stdout
    # Rank 0 alone prints, logs and writes one snapshot set.
    assert job.stdout.count('the model is in') == 1
    assert 'on 2 process(es), batches of 4' in job.stdout
    assert sorted(p.name for p in (tmp_path / 'a').glob('snapshot_*')) == ['snapshot_iter_3']
    log = json.loads((tmp_path / 'a' / 'log').read_text())
    assert [entry['iteration'] for entry in log] == [1, 2, 3]
    # The evaluation at the step and at the end, over the whole validation set.
    assert [0 <= entry['validation/main/map'] <= 1 for entry in log
            if 'validation/main/map' in entry] == [True, True]

    again = _run(tmp_path / 'b', '--seed', '3')
    assert again.returncode == 0, again.stdout
    assert _model(tmp_path / 'b') == _model(tmp_path / 'a')


@pytest.mark.slow
def test_a_batch_the_processes_cannot_share_is_refused(tmp_path):
    job = _run(tmp_path, '--batchsize', '3', timeout=120)
    assert job.returncode != 0
    # One line from each process, no traceback (a user's mistake).
    assert job.stdout.count('train_ssd.py: error: --batchsize (3) must be a multiple of the '
                            'processes (2)') == 2, job.stdout
    assert 'Traceback' not in job.stdout

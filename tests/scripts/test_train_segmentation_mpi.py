"""train_segnet.py and train_pspnet.py over MPI: ``mpiexec -n 2`` jobs of tiny models on
shapes, with a timeout that makes a hang fail the test; skipped where the ``dist`` extra is not
installed."""

from __future__ import annotations

import json
import pathlib
import sys

import pytest

from framework.testing.mpi import job_env, mpiexec, requires_mpi, run_job

_ROOT = pathlib.Path(__file__).resolve().parents[2]
# Batches of 4 images over the two processes, 3 iterations, evaluated at 2 and at the end.
_TINY = ['--dataset', 'shapes', '--n-train', '8', '--n-val', '3', '--batchsize', '4',
         '--iteration', '3', '--eval-interval', '2', '--log-interval', '1', '--loaderjob', '1',
         '--communicator', 'flat']
_SCRIPTS = {
    'train_segnet': ['--base-channels', '4', '--size', '32', '--lr', '0.05'],
    # Its batch normalizations made multi-node ones.
    'train_pspnet': ['--model', 'pspnet_resnet50', '--base-channels', '2', '--size', '48'],
}

pytestmark = requires_mpi


@pytest.mark.slow
@pytest.mark.parametrize('script', sorted(_SCRIPTS))
def test_two_processes_train_and_evaluate(tmp_path, script):
    command = [mpiexec(), '-n', '2', sys.executable, str(_ROOT / 'scripts' / f'{script}.py'),
               *_TINY, *_SCRIPTS[script], '--out', str(tmp_path)]
    job = run_job(command, _ROOT, job_env(_ROOT), 300)
    assert job.returncode == 0, job.stdout
    # Rank 0 alone prints, logs and writes.
    assert job.stdout.count('the model is in') == 1
    assert 'on 2 process(es), batches of 4' in job.stdout
    assert sorted(p.name for p in tmp_path.glob('snapshot_*')) == ['snapshot_iter_3']
    log = json.loads((tmp_path / 'log').read_text())
    assert [entry['iteration'] for entry in log] == [1, 2, 3]
    # The evaluations over the whole validation set, at 2 and at the end.
    assert [0 <= entry['validation/main/miou'] <= 1 for entry in log
            if 'validation/main/miou' in entry] == [True, True]

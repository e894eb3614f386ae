"""framework.distributed on 2 processes over loopback, each job started with ``mpiexec -n 2``.

The checks run in the scripts of ``scripts/``, grouped so that each test starts one job
(about a second each). A timeout makes a hang fail the test instead of blocking the suite.
The tests are skipped, with the reason, where the ``dist`` extra is not installed.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys
import time

from framework.testing.mpi import job_env, mpiexec, requires_mpi
from framework.testing.mpi import run_job as mpi_run_job

_ROOT = pathlib.Path(__file__).resolve().parents[3]
_SCRIPTS = pathlib.Path(__file__).with_name('scripts')


pytestmark = requires_mpi


def run_job(script: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs ``mpiexec -n 2 python scripts/<script> <args>`` from the repository root.

    Returns:
        subprocess.CompletedProcess: the finished job, stdout and stderr merged in ``stdout``.
    """
    command = [mpiexec(), '-n', '2', sys.executable, str(_SCRIPTS / script), *args]
    return mpi_run_job(command, _ROOT, job_env(_ROOT), timeout)


def test_communicators_optimizer_dataset_evaluator_iterator_on_2_processes():
    job = run_job('communicator_checks.py')
    assert job.returncode == 0 and 'all checks passed' in job.stdout, job.stdout


def test_a_rank_that_raises_aborts_the_job_naming_it():
    start = time.monotonic()
    job = run_job('fail_on_one_rank.py', 'raise', timeout=60)
    assert job.returncode != 0, job.stdout
    assert time.monotonic() - start < 30
    assert 'rank 1 of 2 failed with RuntimeError: a deliberate failure' in job.stdout
    assert 'rank 0 was not stopped' not in job.stdout


def test_a_killed_rank_ends_the_job():
    start = time.monotonic()
    job = run_job('fail_on_one_rank.py', 'kill', timeout=60)
    assert job.returncode != 0, job.stdout
    assert time.monotonic() - start < 30
    assert 'rank 0 was not stopped' not in job.stdout

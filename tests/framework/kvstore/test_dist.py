"""dist_sync and dist_device_sync on 2 processes over loopback: one ``mpiexec -n 2`` job runs
every check (``scripts/dist_checks.py``) on the threaded engine, where the all-reduces of
several keys run on worker threads and must still meet in call order. Skipped where the
``dist`` extra is not installed."""

import pathlib
import sys

from framework.testing.mpi import job_env, mpiexec, requires_mpi, run_job

_ROOT = pathlib.Path(__file__).resolve().parents[3]
_SCRIPT = pathlib.Path(__file__).with_name('scripts') / 'dist_checks.py'


@requires_mpi
def test_dist_stores_on_2_processes():
    command = [mpiexec(), '-n', '2', sys.executable, str(_SCRIPT)]
    job = run_job(command, _ROOT, job_env(_ROOT, FRAMEWORK_ENGINE='threaded'), timeout=60)
    assert job.returncode == 0 and 'all dist checks passed' in job.stdout, job.stdout

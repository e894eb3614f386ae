"""dist_sync and dist_device_sync on 2 processes over loopback: one ``mpiexec -n 2`` job runs
every check (``scripts/dist_checks.py``) on the threaded engine, where the all-reduces of
several keys run on worker threads and must still meet in call order. Skipped where the
``dist`` extra is not installed."""

import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

_ROOT = pathlib.Path(__file__).resolve().parents[3]
_SCRIPT = pathlib.Path(__file__).with_name('scripts') / 'dist_checks.py'


def _mpiexec():
    beside = pathlib.Path(sys.executable).with_name('mpiexec')
    return str(beside) if beside.exists() else shutil.which('mpiexec')


@pytest.mark.skipif(importlib.util.find_spec('mpi4py') is None or _mpiexec() is None,
                    reason="mpi4py or mpiexec is not installed: pip install '.[dist]'")
def test_dist_stores_on_2_processes():
    env = dict(os.environ, PYTHONPATH=str(_ROOT), OMP_NUM_THREADS='1',
               OPENBLAS_NUM_THREADS='1', FRAMEWORK_ENGINE='threaded')
    command = [_mpiexec(), '-n', '2', sys.executable, str(_SCRIPT)]
    try:
        job = subprocess.run(command, cwd=_ROOT, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=60)
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f'{" ".join(command)} hung for 60 s:\n{expired.stdout}')
    assert job.returncode == 0 and 'all dist checks passed' in job.stdout, job.stdout

"""Starting MPI jobs from tests: where ``mpiexec`` is, a mark that skips a test without MPI,
and running a job with a timeout that fails the test instead of hanging the suite.

Imported on its own (it needs pytest), as :mod:`framework.testing.attr` is.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

import pytest


def mpiexec() -> str | None:
    """The ``mpiexec`` next to this Python (where the ``mpich`` wheel puts it), else the one on
    the PATH, else None."""
    beside = pathlib.Path(sys.executable).with_name('mpiexec')
    return str(beside) if beside.exists() else shutil.which('mpiexec')


#: Skips a test where mpi4py or ``mpiexec`` is not installed, saying how to install them.
requires_mpi = pytest.mark.skipif(
    importlib.util.find_spec('mpi4py') is None or mpiexec() is None,
    reason="mpi4py or mpiexec is not installed: pip install '.[dist]'")


def job_env(root: str | os.PathLike, **extra: str) -> dict[str, str]:
    """The environment of a job's processes: this one's, the repository ``root`` importable,
    one BLAS thread per process (the processes share the cores), and ``extra``."""
    return dict(os.environ, PYTHONPATH=str(root), OMP_NUM_THREADS='1',
                OPENBLAS_NUM_THREADS='1', **extra)


def run_job(command: list[str], cwd: str | os.PathLike, env: dict[str, str],
            timeout: float) -> subprocess.CompletedProcess:
    """Runs ``command`` to its end; a job still running after ``timeout`` seconds fails the
    test with what it printed.

    Returns:
        subprocess.CompletedProcess: the finished job, stdout and stderr merged in ``stdout``.
    """
    try:
        return subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        pytest.fail(f'{" ".join(command)} hung for {timeout} s:\n{expired.stdout}')

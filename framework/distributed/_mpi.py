"""The one place that imports mpi4py: on first use, with an error naming the extra to install.

Importing ``mpi4py.MPI`` initializes MPI, so nothing in :mod:`framework.distributed` imports it
at module level: ``import framework.distributed`` works without mpi4py, and MPI starts only when
a communicator is created.
"""

from __future__ import annotations


def import_mpi(where: str):
    """Returns the ``mpi4py.MPI`` module.

    Args:
        where: the name of the caller, for the error message.

    Returns:
        module: ``mpi4py.MPI``.

    Raises:
        ImportError: mpi4py is not installed; the message names the ``dist`` extra.
    """
    try:
        from mpi4py import MPI
    except ImportError as error:
        raise ImportError(
            f'{where}: framework.distributed needs mpi4py (and an MPI library with mpiexec), '
            "which the 'dist' extra installs: pip install '.[dist]' in the repository "
            "(mpi4py and the mpich wheel, whose mpiexec lands next to python)") from error
    return MPI

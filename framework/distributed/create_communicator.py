"""create_communicator: a communicator chosen by name (ChainerMN's entry point)."""

from __future__ import annotations

from framework.distributed._mpi import import_mpi
from framework.distributed.flat_communicator import FlatCommunicator
from framework.distributed.mpi_communicator_base import MpiCommunicatorBase
from framework.distributed.naive_communicator import NaiveCommunicator
from framework.distributed.non_cuda_aware_communicator import NonCudaAwareCommunicator
from framework.distributed.pure_nccl_communicator import PureNcclCommunicator

_COMMUNICATORS = {
    'naive': NaiveCommunicator,
    'flat': FlatCommunicator,
    'non_cuda_aware': NonCudaAwareCommunicator,
    'pure_nccl': PureNcclCommunicator,
}


def create_communicator(communicator_name: str = 'pure_nccl',
                        mpi_comm=None) -> MpiCommunicatorBase:
    """Creates a communicator among the processes of an MPI job.

    Run the script under MPI (``mpiexec -n 2 python train.py``); alone, it is a job of one
    process. The names are ChainerMN's:

    - ``'naive'``: one all-reduce per parameter (CPU, or GPU with a CUDA-aware MPI).
    - ``'flat'``: the gradients packed into one buffer per dtype, one all-reduce (CPU, or GPU
      with a CUDA-aware MPI).
    - ``'non_cuda_aware'``: ``'flat'`` staged through host memory (CPU, or GPU with any MPI).
    - ``'pure_nccl'``: NCCL on the GPUs (needs CuPy with NCCL).

    Args:
        communicator_name: one of the names above.
        mpi_comm (mpi4py.MPI.Comm): the processes to communicate among; ``MPI.COMM_WORLD``
            when None.

    Returns:
        MpiCommunicatorBase: the communicator.

    Raises:
        ValueError: an unknown ``communicator_name``.
        ImportError: mpi4py is not installed (``pip install '.[dist]'``).
        RuntimeError: ``'pure_nccl'`` without CuPy or NCCL.
    """
    if communicator_name not in _COMMUNICATORS:
        raise ValueError(f'create_communicator: communicator_name must be one of '
                         f'{", ".join(map(repr, _COMMUNICATORS))}, but got '
                         f'{communicator_name!r}')
    if mpi_comm is None:
        mpi_comm = import_mpi('create_communicator').COMM_WORLD
    return _COMMUNICATORS[communicator_name](mpi_comm)

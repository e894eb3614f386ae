"""DistKVStore: the KVStore of a data-parallel job over MPI (MXNet's ``dist_sync`` types).

There is no parameter server: as in Horovod-style deployments of MXNet, every worker holds
every key, and a push all-reduces the values of the workers (the sum over the workers of the
sum over their devices) over the MPI transport of :mod:`framework.distributed`. With an
optimizer, every worker applies the same update to the same weights, so they stay equal.

Every worker must call ``init`` and ``push`` of the same keys in the same order (collective
calls, as MPI's). The all-reduces run on the engine in that order: each one writes a variable
shared by all of them.
"""

from __future__ import annotations

from framework.distributed.create_communicator import create_communicator
from framework.kvstore.kvstore import KVStore


class DistKVStore(KVStore):
    """A KVStore shared by the processes of an MPI job (``mpiexec -n N python train.py``).

    Make one with :func:`framework.kvstore.create`.

    Args:
        kvstore_type: ``'dist_sync'`` (values summed in host memory) or
            ``'dist_device_sync'`` (summed on the devices, as ``'device'``).
        mpi_comm (mpi4py.MPI.Comm): the worker processes; ``MPI.COMM_WORLD`` when None.
    """

    def __init__(self, kvstore_type: str = 'dist_sync', mpi_comm=None):
        super().__init__(kvstore_type)
        self._comm = create_communicator('flat', mpi_comm)
        self._comm_var = self._engine.new_var()

    @property
    def rank(self) -> int:
        """The rank of this worker, ``0 .. num_workers - 1``."""
        return self._comm.rank

    @property
    def num_workers(self) -> int:
        """The number of worker processes."""
        return self._comm.size

    def barrier(self) -> None:
        """Waits for the work pushed by this worker, then for every worker to get here."""
        self._engine.wait_for_all()
        self._comm.mpi_comm.Barrier()

    def _collective_vars(self):
        return (self._comm_var,)

    def _reduce(self, merged):
        return self._comm.allreduce(merged)

    def _initial(self, array):
        """Rank 0's value, on every worker (MXNet keeps the first worker's)."""
        return self._comm.bcast(array)

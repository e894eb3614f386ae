"""NonCudaAwareCommunicator: the packed buffer staged through the host (``'non_cuda_aware'``)."""

from __future__ import annotations

from framework import backend
from framework.distributed.flat_communicator import FlatCommunicator


class NonCudaAwareCommunicator(FlatCommunicator):
    """:class:`FlatCommunicator` for an MPI that cannot read GPU memory.

    The packed gradients are copied to the host, all-reduced there and copied back, so CuPy
    arrays work with any MPI (the ``mpich`` wheel's included). On the CPU it is
    :class:`FlatCommunicator`.

    Args:
        mpi_comm (mpi4py.MPI.Comm): the processes to communicate among.
    """

    def _sum(self, buffer) -> None:
        host = backend.to_cpu(buffer)
        self.mpi_comm.Allreduce(self._mpi.IN_PLACE, host, op=self._mpi.SUM)
        if host is not buffer:
            buffer[...] = backend.get_array_module(buffer).asarray(host)

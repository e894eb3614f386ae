"""NaiveCommunicator: one MPI all-reduce per parameter (ChainerMN's ``'naive'``)."""

from __future__ import annotations

from framework.distributed import _packing
from framework.distributed.mpi_communicator_base import MpiCommunicatorBase


class NaiveCommunicator(MpiCommunicatorBase):
    """Averages gradients with one ``MPI_Allreduce`` per parameter.

    The simplest strategy, and the reference for the others: as many collective calls as
    parameters, so the latency of each adds up. Arrays are handed to MPI as they are; CuPy
    arrays need a CUDA-aware MPI (otherwise use ``'non_cuda_aware'``).

    Args:
        mpi_comm (mpi4py.MPI.Comm): the processes to communicate among.
    """

    def _mean_arrays(self, arrays) -> None:
        for array in arrays:
            buffer = array.astype(_packing.transport_dtype(array.dtype), copy=False)
            _packing.synchronize(buffer)
            self.mpi_comm.Allreduce(self._mpi.IN_PLACE, buffer, op=self._mpi.SUM)
            buffer /= self.size
            if buffer is not array:
                array[...] = buffer

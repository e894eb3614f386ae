"""FlatCommunicator: every gradient packed into one buffer, one all-reduce (``'flat'``)."""

from __future__ import annotations

from framework.distributed import _packing
from framework.distributed.mpi_communicator_base import MpiCommunicatorBase


class FlatCommunicator(MpiCommunicatorBase):
    """Averages gradients with one ``MPI_Allreduce`` over a buffer that packs them all.

    One contiguous buffer per dtype (float16 gradients travel as float32), so a model costs
    one collective call whatever its number of parameters. The buffer is handed to MPI on the
    gradients' device; CuPy arrays need a CUDA-aware MPI (otherwise use ``'non_cuda_aware'``).

    Args:
        mpi_comm (mpi4py.MPI.Comm): the processes to communicate among.
    """

    def _mean_arrays(self, arrays) -> None:
        packed = _packing.pack(arrays)
        for buffer, _ in packed:
            self._sum(buffer)
        _packing.unpack(packed, divisor=self.size)

    def _sum(self, buffer) -> None:
        """Replaces ``buffer`` by its element-wise sum over the processes."""
        _packing.synchronize(buffer)
        self.mpi_comm.Allreduce(self._mpi.IN_PLACE, buffer, op=self._mpi.SUM)

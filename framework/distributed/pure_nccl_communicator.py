"""PureNcclCommunicator: gradients of CuPy arrays all-reduced by NCCL (``'pure_nccl'``)."""

from __future__ import annotations

import numpy

from framework.distributed import _packing
from framework.distributed.mpi_communicator_base import MpiCommunicatorBase

_INSTALL = ("install CuPy (pip install '.[gpu]') and NCCL (pip install nvidia-nccl-cu12, or "
            'python -m cupyx.tools.install_library --library nccl --cuda 12.x)')


def _import_nccl():
    """Returns ``(cupy, cupy.cuda.nccl)``, or raises naming what to install."""
    try:
        import cupy
        from cupy.cuda import nccl
    except ImportError as error:
        raise RuntimeError(f"create_communicator('pure_nccl') needs CuPy with NCCL: "
                           f'{_INSTALL}') from error
    if not getattr(nccl, 'available', True):
        raise RuntimeError("create_communicator('pure_nccl') needs NCCL, which CuPy cannot "
                           f'load: {_INSTALL}')
    return cupy, nccl


class PureNcclCommunicator(MpiCommunicatorBase):
    """Averages gradients of CuPy arrays with one NCCL all-reduce per dtype, on the GPU.

    Each process uses the GPU of its :attr:`intra_rank`, made current when the communicator
    is created. MPI only starts NCCL and carries everything but the gradients (objects,
    arrays, :meth:`bcast_data`).

    Args:
        mpi_comm (mpi4py.MPI.Comm): the processes to communicate among.
    """

    def __init__(self, mpi_comm):
        self._cupy, self._nccl = _import_nccl()
        super().__init__(mpi_comm)
        self._cupy.cuda.Device(self.intra_rank).use()
        unique_id = self.bcast_obj(self._nccl.get_unique_id() if self.rank == 0 else None)
        self._nccl_comm = self._nccl.NcclCommunicator(self.size, unique_id, self.rank)
        self._nccl_dtypes = {numpy.dtype(numpy.float32): self._nccl.NCCL_FLOAT32,
                             numpy.dtype(numpy.float64): self._nccl.NCCL_FLOAT64}

    def finalize(self) -> None:
        """Destroys the NCCL communicator and frees the MPI one."""
        self._nccl_comm.destroy()
        super().finalize()

    def _mean_arrays(self, arrays) -> None:
        if any(not isinstance(array, self._cupy.ndarray) for array in arrays):
            raise TypeError("PureNcclCommunicator: the gradients must be CuPy arrays (move the "
                            "model to a GPU), or use create_communicator('flat') on the CPU")
        packed = _packing.pack(arrays)
        stream = self._cupy.cuda.get_current_stream()
        for buffer, _ in packed:
            if buffer.dtype not in self._nccl_dtypes:
                raise TypeError(f'PureNcclCommunicator: gradients of dtype {buffer.dtype} '
                                'cannot be all-reduced; expected float16, float32 or float64')
            self._nccl_comm.allReduce(buffer.data.ptr, buffer.data.ptr, buffer.size,
                                      self._nccl_dtypes[buffer.dtype], self._nccl.NCCL_SUM,
                                      stream.ptr)
        _packing.unpack(packed, divisor=self.size)

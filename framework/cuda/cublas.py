"""cuBLAS's matrix products through ctypes, on handles of our own: products that a CUDA graph
can capture.

CuPy refuses every cuBLAS call while a stream captures (its ``setStream`` raises "calling
cuBLAS API during stream capture is currently unsupported"), although cuBLAS itself captures
its products when it is given a workspace (NVIDIA's cuBLAS guide, "CUDA Graphs Support";
PyTorch captures them so). The static graph's products on a GPU go through :func:`matmul`, so
that :mod:`framework.cuda.cuda_graph` can capture the graphs of every model of the zoo. The
library is the ``libcublas`` CuPy loaded; each thread has a handle per device, bound at each
call to CuPy's current stream and to a workspace lent by the device's memory pool.
"""

from __future__ import annotations

import ctypes
import functools
import math
import threading

import numpy

from framework import backend, resources

_OP_N, _OP_T = 0, 1
# cudaDataType_t and cublasComputeType_t: half and single precision multiply-add in single
# precision (no TF32), double in double.
_DATA_TYPES = {numpy.dtype(numpy.float16): 2, numpy.dtype(numpy.float32): 0,
               numpy.dtype(numpy.float64): 1}
_COMPUTE_32F, _COMPUTE_64F = 68, 70
_GEMM_DEFAULT = -1
#: The workspace of each product (bytes): NVIDIA's recommendation for Hopper GPUs.
WORKSPACE_BYTES = 32 << 20


class CublasError(RuntimeError):
    """A cuBLAS call failed; the message names the call and its status."""


@functools.cache
def _library():
    """The libcublas that CuPy loaded (its path read from the process's mappings)."""
    cupy = backend._cupy()
    cupy.cuda.device.get_cublas_handle()
    with open('/proc/self/maps') as maps:
        paths = {line.split()[-1] for line in maps if '/libcublas.so' in line}
    if not paths:
        raise CublasError('libcublas is not loaded by CuPy: cannot call cuBLAS')
    lib = ctypes.CDLL(sorted(paths)[0])
    pointer, c_int, int64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_longlong
    signatures = {
        'cublasCreate_v2': [ctypes.POINTER(ctypes.c_void_p)],
        'cublasSetStream_v2': [pointer, pointer],
        'cublasSetWorkspace_v2': [pointer, pointer, ctypes.c_size_t],
        'cublasGemmStridedBatchedEx': [
            pointer, c_int, c_int, c_int, c_int, c_int, pointer,
            pointer, c_int, c_int, int64, pointer, c_int, c_int, int64, pointer,
            pointer, c_int, c_int, int64, c_int, c_int, c_int],
    }
    for name, argtypes in signatures.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = c_int
    return lib


def _check(name: str, status: int) -> None:
    if status != 0:
        raise CublasError(f'{name} failed with cuBLAS status {status}')


_handles = threading.local()


def _handle(device_id: int):
    """This thread's cuBLAS handle on the device (cuBLAS handles are not shared between
    threads that call at the same time)."""
    handles = getattr(_handles, 'by_device', None)
    if handles is None:
        handles = _handles.by_device = {}
    handle = handles.get(device_id)
    if handle is None:
        handle = ctypes.c_void_p()
        with backend._cupy().cuda.Device(device_id):
            _check('cublasCreate_v2', _library().cublasCreate_v2(ctypes.byref(handle)))
        handles[device_id] = handle
    return handle


def _matrix(a) -> tuple[int, int] | None:
    """How cuBLAS (column-major) reads the last two axes of ``a`` as the transpose of the
    row-major matrix they are: ``(operation, leading dimension)``, or None when neither axis
    is contiguous."""
    item = a.itemsize
    rows, cols = a.shape[-2:]
    row_stride = a.strides[-2] if rows > 1 else cols * item
    col_stride = a.strides[-1] if cols > 1 else item
    if col_stride == item and row_stride % item == 0 and row_stride >= max(cols, 1) * item:
        return _OP_N, row_stride // item
    if row_stride == item and col_stride % item == 0 and col_stride >= max(rows, 1) * item:
        return _OP_T, col_stride // item
    return None


def _batch_stride(a, batch: tuple[int, ...]) -> int | None:
    """The stride (elements) between the matrices of ``a`` over the flattened ``batch`` axes,
    0 when ``a`` has none; None when they are not evenly strided."""
    if a.ndim == 2:
        return 0
    if a.shape[:-2] != batch:
        return None
    axes = [(n, s) for n, s in zip(a.shape[:-2], a.strides[:-2]) if n > 1]
    if not axes:
        return 0
    for (_, outer), (n, inner) in zip(axes, axes[1:]):
        if outer != n * inner:
            return None
    return axes[-1][1] // a.itemsize


def matmul(a, b, out) -> None:
    """``out[...] = a @ b`` by cuBLAS, on CuPy's current stream.

    Args:
        a (cupy.ndarray): ``(..., M, K)``.
        b (cupy.ndarray): ``(..., K, N)``.
        out (cupy.ndarray): ``(..., M, N)``, the batch axes of ``a`` and ``b`` (or none, for
            a single matrix shared by the whole batch); of one dtype with them, float16,
            float32 or float64. Operands laid out otherwise than cuBLAS reads are copied.

    Raises:
        TypeError: the dtypes differ or are not floats cuBLAS multiplies.
        ValueError: the shapes do not make a product.
    """
    cupy = backend._cupy()
    dtype = out.dtype
    if a.dtype != dtype or b.dtype != dtype or dtype not in _DATA_TYPES:
        raise TypeError(f'matmul: a, b and out must have one dtype of float16, float32 or '
                        f'float64, but got {a.dtype}, {b.dtype} and {out.dtype}')
    if (min(a.ndim, b.ndim, out.ndim) < 2 or any(x.ndim not in (2, out.ndim) for x in (a, b))
            or a.shape[-2] != out.shape[-2] or b.shape[-2:] != (a.shape[-1], out.shape[-1])):
        raise ValueError(f'matmul: cannot multiply a of shape {a.shape} by b of shape '
                         f'{b.shape} into out of shape {out.shape}')
    batch = out.shape[:-2]
    m, n = out.shape[-2:]
    k = a.shape[-1]
    if not out.size:
        return
    if not k:
        out.fill(0)
        return
    a, b = (_readable(cupy, x, batch) for x in (a, b))
    c = _operand(out, batch)
    if c is None or c[1] != _OP_N:
        c = _operand(cupy.empty(out.shape, dtype), batch)
    _gemm(a, b, c, count=math.prod(batch), m=m, n=n, k=k)
    if c[0] is not out:
        out[...] = c[0]


def _operand(x, batch) -> tuple | None:
    """``(x, operation, leading dimension, batch stride)``: how cuBLAS reads ``x``; None when
    it cannot."""
    layout = _matrix(x)
    stride = _batch_stride(x, batch)
    if layout is None or stride is None:
        return None
    return (x, *layout, stride)


def _readable(cupy, x, batch) -> tuple:
    """:func:`_operand` of ``x`` itself when cuBLAS can read it, else of a C-contiguous copy
    (broadcast to ``batch`` where its batch axes are partly broadcast)."""
    operand = _operand(x, batch)
    if operand is not None:
        return operand
    if x.ndim > 2:
        x = cupy.broadcast_to(x, batch + x.shape[-2:])
    return _operand(cupy.ascontiguousarray(x), batch)


def _gemm(a, b, c, count, m, n, k) -> None:
    """``c = a @ b`` (operands as :func:`_operand` describes them) as cuBLAS computes
    ``c^T = b^T a^T`` in column-major order."""
    cupy = backend._cupy()
    lib = _library()
    (a, op_a, ld_a, stride_a), (b, op_b, ld_b, stride_b), (c, _, ld_c, stride_c) = a, b, c
    data = _DATA_TYPES[c.dtype]
    if c.dtype == numpy.float64:
        compute, alpha, beta = _COMPUTE_64F, ctypes.c_double(1), ctypes.c_double(0)
    else:
        compute, alpha, beta = _COMPUTE_32F, ctypes.c_float(1), ctypes.c_float(0)
    device_id = c.device.id
    handle = _handle(device_id)
    workspace = resources.request_workspace(f'@cupy:{device_id}', WORKSPACE_BYTES)
    with c.device:
        _check('cublasSetStream_v2', lib.cublasSetStream_v2(
            handle, cupy.cuda.get_current_stream().ptr))
        _check('cublasSetWorkspace_v2', lib.cublasSetWorkspace_v2(
            handle, workspace.data.ptr, WORKSPACE_BYTES))
        _check('cublasGemmStridedBatchedEx', lib.cublasGemmStridedBatchedEx(
            handle, op_b, op_a, n, m, k, ctypes.byref(alpha),
            b.data.ptr, data, ld_b, stride_b, a.data.ptr, data, ld_a, stride_a,
            ctypes.byref(beta), c.data.ptr, data, ld_c, stride_c, count, compute,
            _GEMM_DEFAULT))

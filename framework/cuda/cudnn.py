"""cuDNN's convolutions, called through ctypes: forward, backward data and backward filter.

CuPy 14 no longer binds cuDNN, so this module loads ``libcudnn`` itself (the ``nvidia-cudnn``
wheel that the ``gpu`` extra brings, or one on the loader's path) and drives its graph
("backend") API, as PyTorch does: for each convolution geometry (direction, shapes, strides,
alignment, dtype, padding, stride, dilation, groups, math mode) one operation graph, the
engine configurations cuDNN's heuristics propose for it, and the execution plan of the first
that finalizes within the workspace limit and keeps to the math mode, made once and kept. A
call then only packs its data pointers and workspace (lent by the device's memory pool) and
executes the plan on CuPy's current stream: a few microseconds of the host. (The legacy
``cudnnConvolutionForward`` family re-plans inside every call on cuDNN 9: ~150 us each,
measured on an H200, slower than our own kernels at batch 1.)

Which convolutions go to cuDNN is :func:`should_use_cudnn`'s decision, taken from
``framework.config.use_cudnn`` (``'always'``, ``'auto'``: when cuDNN is there; ``'never'``),
as in Chainer; :func:`supports` says which geometries cuDNN takes (two- and three-dimensional,
one-dimensional ones as two-dimensional ones of height 1; no ``cover_all``; one float dtype).
``framework.config.use_cudnn_tensor_core`` chooses the math: ``'auto'`` lets half precision
use tensor cores and keeps single precision exact (no engine with cuDNN's tensor-core note),
``'always'`` also lets single precision use TF32 tensor cores (PyTorch's default for
convolutions), ``'never'`` keeps every precision off tensor cores. ``framework.config.autotune``
times the proposed plans on the first call's data and keeps the fastest (Chainer's entry;
PyTorch's ``cudnn.benchmark``).
"""

from __future__ import annotations

import ctypes
import functools
import glob
import math
import os
import sys

import numpy

from framework import backend, resources
from framework.config import config

_SUCCESS = 0
_FLOAT, _DOUBLE, _HALF = 0, 1, 2
_DATA_TYPES = {numpy.dtype(numpy.float16): _HALF, numpy.dtype(numpy.float32): _FLOAT,
               numpy.dtype(numpy.float64): _DOUBLE}
_CROSS_CORRELATION = 1
#: The most workspace one convolution may take (bytes); plans that need more are passed.
WORKSPACE_LIMIT = 1 << 30
_INT32_MAX = (1 << 31) - 1
_LEVELS = ('always', 'auto', 'never')

# cudnnBackendDescriptorType_t
_CONVOLUTION, _ENGINE, _ENGINECFG, _ENGINEHEUR, _EXECUTION_PLAN = 1, 2, 3, 4, 5
_OPERATIONGRAPH, _VARIANT_PACK, _TENSOR = 15, 16, 17
#: The operation descriptor of each direction and its attributes: alpha, beta, convolution,
#: then the tensors x, w, y (or their gradients).
_OPERATIONS = {
    'forward': (10, 700, 701, 702, {'x': 704, 'w': 703, 'y': 705}),
    'backward_filter': (11, 712, 713, 714, {'x': 716, 'w': 715, 'y': 717}),
    'backward_data': (12, 706, 707, 708, {'x': 710, 'w': 709, 'y': 711}),
}
# cudnnBackendAttributeType_t
_T_HANDLE, _T_DATA_TYPE, _T_INT64, _T_FLOAT, _T_DOUBLE, _T_VOID_PTR = 0, 1, 3, 4, 5, 6
_T_CONVOLUTION_MODE, _T_HEUR_MODE, _T_NUMERICAL_NOTE, _T_DESCRIPTOR = 7, 8, 11, 15
_T_BEHAVIOR_NOTE = 19
# cudnnBackendAttributeName_t
_CONVOLUTION_ATTRS = {'comp_type': 100, 'conv_mode': 101, 'dilations': 102,
                      'filter_strides': 103, 'post_paddings': 104, 'pre_paddings': 105,
                      'spatial_dims': 106}
_ENGINEHEUR_MODE, _ENGINEHEUR_GRAPH, _ENGINEHEUR_RESULTS = 200, 201, 202
_ENGINECFG_ENGINE = 300
_PLAN_HANDLE, _PLAN_ENGINE_CONFIG, _PLAN_WORKSPACE_SIZE = 400, 401, 402
_OPERATIONGRAPH_HANDLE, _OPERATIONGRAPH_OPS = 800, 801
_TENSOR_ATTRS = {'alignment': 900, 'data_type': 901, 'dimensions': 902, 'strides': 903,
                 'unique_id': 906}
_PACK_UIDS, _PACK_POINTERS, _PACK_WORKSPACE = 1000, 1001, 1003
_ENGINE_NUMERICAL_NOTE, _ENGINE_BEHAVIOR_NOTE = 1303, 1305
# cudnnBackendHeurMode_t: the recommended heuristics, then the list that covers every geometry.
_HEUR_A, _HEUR_FALLBACK = 3, 2
# cudnnBackendNumericalNote_t / cudnnBackendBehaviorNote_t
_NOTE_TENSOR_CORE, _NOTE_DOWN_CONVERT_INPUTS, _NOTE_REDUCED_PRECISION = 0, 1, 2
_NOTE_RUNTIME_COMPILATION = 0
#: The unique ids of a convolution's three tensors in its operation graph, and in the order
#: in which a variant pack gives their data pointers.
_UIDS = {'x': 1, 'w': 2, 'y': 3}
_PACK_ORDER = (ctypes.c_int64 * 3)(_UIDS['x'], _UIDS['w'], _UIDS['y'])


class CudnnError(RuntimeError):
    """A cuDNN call failed; the message names the call and cuDNN's reason."""


def _library_candidates():
    """Where libcudnn may be: NVIDIA's wheels on ``sys.path`` first, then the loader's path."""
    for root in sys.path:
        for folder in ('nvidia/cudnn/lib', 'nvidia/cu13/lib', 'nvidia/cu12/lib'):
            yield from sorted(glob.glob(os.path.join(root or '.', folder, 'libcudnn.so.*')),
                              reverse=True)
    yield from ('libcudnn.so.9', 'libcudnn.so.8', 'libcudnn.so')


def _declare(lib) -> None:
    """Gives the functions used their argument and result types (pointers stay 64-bit)."""
    pointer = ctypes.c_void_p
    out_pointer = ctypes.POINTER(ctypes.c_void_p)
    c_int, int64 = ctypes.c_int, ctypes.c_int64
    lib.cudnnGetVersion.restype = ctypes.c_size_t
    lib.cudnnGetErrorString.restype = ctypes.c_char_p
    lib.cudnnGetErrorString.argtypes = [c_int]
    signatures = {
        'cudnnCreate': [out_pointer],
        'cudnnSetStream': [pointer, pointer],
        'cudnnBackendCreateDescriptor': [c_int, out_pointer],
        'cudnnBackendDestroyDescriptor': [pointer],
        'cudnnBackendFinalize': [pointer],
        'cudnnBackendSetAttribute': [pointer, c_int, c_int, int64, pointer],
        'cudnnBackendGetAttribute': [pointer, c_int, c_int, int64, ctypes.POINTER(int64),
                                     pointer],
        'cudnnBackendExecute': [pointer, pointer, pointer],
    }
    for name, argtypes in signatures.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = c_int


@functools.cache
def _library():
    """libcudnn (version 8.5 or later: its graph API and engine notes) with the types of the
    functions used, or None."""
    if not backend.is_cupy_available():
        return None
    for candidate in _library_candidates():
        try:
            lib = ctypes.CDLL(candidate)
        except OSError:
            continue
        try:
            _declare(lib)
        except AttributeError:
            continue
        if lib.cudnnGetVersion() >= 8500:
            return lib
    return None


def is_available() -> bool:
    """Whether CuPy and a libcudnn of version 8.5 or later can be loaded."""
    return _library() is not None


def version() -> int | None:
    """cuDNN's version (e.g. 91900 for 9.19.0), or None without it."""
    lib = _library()
    return None if lib is None else int(lib.cudnnGetVersion())


def _level(name: str) -> str:
    level = getattr(config, name)
    if level not in _LEVELS:
        raise ValueError(f"framework.config.{name} must be 'always', 'auto' or 'never', but "
                         f'got {level!r}')
    return level


def should_use_cudnn(level: str = '>=auto') -> bool:
    """Whether an operation that asks for cuDNN at ``level`` gets it, as Chainer's function
    of the same name: ``'>=auto'`` (where cuDNN is the better choice) when
    ``framework.config.use_cudnn`` is ``'always'`` or ``'auto'``, ``'==always'`` (where it is
    not always) only when it is ``'always'``; never without cuDNN."""
    if level not in ('>=auto', '==always'):
        raise ValueError(f"should_use_cudnn: level must be '>=auto' or '==always', but got "
                         f'{level!r}')
    configured = _level('use_cudnn')
    wanted = configured == 'always' if level == '==always' else configured != 'never'
    return wanted and is_available()


def supports(arrays, out_shape, cover_all) -> bool:
    """Whether cuDNN computes a convolution (either direction) of the ``(N, C, *spatial)``
    or ``(O, C // groups, *ksize)`` ``arrays`` (or anything with their ``shape`` and
    ``dtype``) into an output of ``out_shape``: one to three spatial axes, no ``cover_all``,
    one float dtype, no empty axis and every array within 32-bit indices."""
    dtype = arrays[0].dtype
    return (1 <= len(arrays[0].shape) - 2 <= 3 and not any(cover_all)
            and dtype in _DATA_TYPES
            and all(a.dtype == dtype and 0 < math.prod(a.shape) <= _INT32_MAX for a in arrays)
            and 0 < math.prod(out_shape) <= _INT32_MAX)


def _allows_tensor_cores(dtype: numpy.dtype) -> bool:
    """Whether engines with cuDNN's tensor-core note may compute in ``dtype``."""
    level = _level('use_cudnn_tensor_core')
    if level == 'never' or dtype == numpy.float64:
        return False
    return dtype == numpy.float16 or level == 'always'


def _check(lib, name, *args):
    status = getattr(lib, name)(*args)
    if status != _SUCCESS:
        raise CudnnError(f'{name}: {lib.cudnnGetErrorString(status).decode()} '
                         f'(status {status})')


@functools.cache
def _handle(device_id: int):
    """The cuDNN handle of a GPU, made on first use."""
    handle = ctypes.c_void_p()
    with backend._cupy().cuda.Device(device_id):
        _check(_library(), 'cudnnCreate', ctypes.byref(handle))
    return handle


class _Descriptors:
    """The graph API's descriptors made for one plan, destroyed with it."""

    def __init__(self, lib):
        self.lib = lib
        self._owned = []

    def create(self, kind: int):
        desc = ctypes.c_void_p()
        _check(self.lib, 'cudnnBackendCreateDescriptor', kind, ctypes.byref(desc))
        self._owned.append(desc)
        return desc

    def set(self, desc, name: int, kind: int, values) -> None:
        """Sets the attribute ``name`` of ``desc`` to ``values``, a ctypes array or scalar."""
        count = len(values) if isinstance(values, ctypes.Array) else 1
        _check(self.lib, 'cudnnBackendSetAttribute', desc, name, kind, count,
               ctypes.byref(values))

    def finalize(self, desc) -> int:
        return self.lib.cudnnBackendFinalize(desc)

    def __del__(self):
        for desc in reversed(getattr(self, '_owned', ())):
            self.lib.cudnnBackendDestroyDescriptor(desc)


def _int64s(values):
    return (ctypes.c_int64 * len(values))(*values)


class _Plan:
    """One direction of one convolution geometry as an execution plan of cuDNN's graph API.

    Args:
        tensors (dict): ``'x'``, ``'w'``, ``'y'``: (shape, strides, alignment) of the input,
            the filter and the output (of the forward convolution; in elements and bytes),
            with two or three spatial axes.
    """

    def __init__(self, lib, handle, direction, dtype, tensors, pad, stride, dilate,
                 tensor_cores: bool, autotune: bool):
        self.lib = lib
        self.handle = handle
        self._descs = _Descriptors(lib)
        self.plan = None
        self.workspace_size = 0
        self._tensor_cores = tensor_cores
        data_type = _DATA_TYPES[dtype]
        compute_type = _DOUBLE if data_type == _DOUBLE else _FLOAT
        descs = self._descs
        tensor_descs = {}
        for role, (shape, strides, alignment) in dict(tensors).items():
            desc = tensor_descs[role] = descs.create(_TENSOR)
            descs.set(desc, _TENSOR_ATTRS['data_type'], _T_DATA_TYPE, ctypes.c_int(data_type))
            descs.set(desc, _TENSOR_ATTRS['dimensions'], _T_INT64, _int64s(shape))
            descs.set(desc, _TENSOR_ATTRS['strides'], _T_INT64, _int64s(strides))
            descs.set(desc, _TENSOR_ATTRS['unique_id'], _T_INT64, ctypes.c_int64(_UIDS[role]))
            descs.set(desc, _TENSOR_ATTRS['alignment'], _T_INT64, ctypes.c_int64(alignment))
            self._finalize(desc, 'a tensor descriptor')
        convolution = descs.create(_CONVOLUTION)
        for name, kind, values in (
                ('comp_type', _T_DATA_TYPE, ctypes.c_int(compute_type)),
                ('conv_mode', _T_CONVOLUTION_MODE, ctypes.c_int(_CROSS_CORRELATION)),
                ('spatial_dims', _T_INT64, ctypes.c_int64(len(pad))),
                ('dilations', _T_INT64, _int64s(dilate)),
                ('filter_strides', _T_INT64, _int64s(stride)),
                ('pre_paddings', _T_INT64, _int64s(pad)),
                ('post_paddings', _T_INT64, _int64s(pad))):
            descs.set(convolution, _CONVOLUTION_ATTRS[name], kind, values)
        self._finalize(convolution, 'the convolution descriptor')
        kind, alpha_name, beta_name, conv_name, roles = _OPERATIONS[direction]
        operation = descs.create(kind)
        scalar, scalar_type = ((ctypes.c_double, _T_DOUBLE) if compute_type == _DOUBLE
                               else (ctypes.c_float, _T_FLOAT))
        descs.set(operation, alpha_name, scalar_type, scalar(1))
        descs.set(operation, beta_name, scalar_type, scalar(0))
        descs.set(operation, conv_name, _T_DESCRIPTOR, convolution)
        for role, name in roles.items():
            descs.set(operation, name, _T_DESCRIPTOR, tensor_descs[role])
        self._finalize(operation, 'the operation descriptor')
        graph = descs.create(_OPERATIONGRAPH)
        descs.set(graph, _OPERATIONGRAPH_OPS, _T_DESCRIPTOR,
                  (ctypes.c_void_p * 1)(operation.value))
        descs.set(graph, _OPERATIONGRAPH_HANDLE, _T_HANDLE, handle)
        self._finalize(graph, 'the operation graph')
        self._graph = graph
        self.autotune = autotune

    def _finalize(self, desc, what):
        status = self._descs.finalize(desc)
        if status != _SUCCESS:
            raise CudnnError(f'cudnnBackendFinalize of {what}: '
                             f'{self.lib.cudnnGetErrorString(status).decode()} '
                             f'(status {status})')

    def _engine_configs(self, mode: int):
        """The engine configurations cuDNN's heuristics of ``mode`` propose, best first."""
        descs = self._descs
        heuristics = descs.create(_ENGINEHEUR)
        descs.set(heuristics, _ENGINEHEUR_GRAPH, _T_DESCRIPTOR, self._graph)
        descs.set(heuristics, _ENGINEHEUR_MODE, _T_HEUR_MODE, ctypes.c_int(mode))
        if descs.finalize(heuristics) != _SUCCESS:
            return []
        count = ctypes.c_int64()
        _check(self.lib, 'cudnnBackendGetAttribute', heuristics, _ENGINEHEUR_RESULTS,
               _T_DESCRIPTOR, 0, ctypes.byref(count), None)
        configs = (ctypes.c_void_p * count.value)(
            *(descs.create(_ENGINECFG).value for _ in range(count.value)))
        _check(self.lib, 'cudnnBackendGetAttribute', heuristics, _ENGINEHEUR_RESULTS,
               _T_DESCRIPTOR, count.value, ctypes.byref(count), configs)
        return [ctypes.c_void_p(engine_config) for engine_config in configs[:count.value]]

    def _notes(self, engine, name: int, kind: int) -> set:
        """The notes ``name`` of ``engine`` (none where this cuDNN does not know them)."""
        notes = (ctypes.c_int * 16)()
        count = ctypes.c_int64()
        status = self.lib.cudnnBackendGetAttribute(engine, name, kind, 16, ctypes.byref(count),
                                                   notes)
        return set(notes[:count.value]) if status == _SUCCESS else set()

    def _admits(self, engine_config) -> bool:
        """Whether the engine keeps to the math mode: no down-converted inputs or reduced
        precision, tensor cores only where allowed, no kernel compiled at run time."""
        engine = self._descs.create(_ENGINE)
        count = ctypes.c_int64()
        _check(self.lib, 'cudnnBackendGetAttribute', engine_config, _ENGINECFG_ENGINE,
               _T_DESCRIPTOR, 1, ctypes.byref(count), ctypes.byref(engine))
        notes = self._notes(engine, _ENGINE_NUMERICAL_NOTE, _T_NUMERICAL_NOTE)
        if notes & {_NOTE_DOWN_CONVERT_INPUTS, _NOTE_REDUCED_PRECISION}:
            return False
        if _NOTE_TENSOR_CORE in notes and not self._tensor_cores:
            return False
        behavior = self._notes(engine, _ENGINE_BEHAVIOR_NOTE, _T_BEHAVIOR_NOTE)
        return _NOTE_RUNTIME_COMPILATION not in behavior

    def candidates(self):
        """Finalized execution plans within the workspace limit, cuDNN's best first, each
        with its workspace size."""
        for mode in (_HEUR_A, _HEUR_FALLBACK):
            for engine_config in self._engine_configs(mode):
                if not self._admits(engine_config):
                    continue
                plan = self._descs.create(_EXECUTION_PLAN)
                self._descs.set(plan, _PLAN_HANDLE, _T_HANDLE, self.handle)
                self._descs.set(plan, _PLAN_ENGINE_CONFIG, _T_DESCRIPTOR, engine_config)
                if self._descs.finalize(plan) != _SUCCESS:
                    continue
                size, count = ctypes.c_int64(), ctypes.c_int64()
                _check(self.lib, 'cudnnBackendGetAttribute', plan, _PLAN_WORKSPACE_SIZE,
                       _T_INT64, 1, ctypes.byref(count), ctypes.byref(size))
                if size.value <= WORKSPACE_LIMIT:
                    yield plan, size.value

    def execute(self, plan, workspace_size, device, pointers) -> int:
        """Runs ``plan`` on the data at ``pointers`` (``'x'``, ``'w'``, ``'y'``): cuDNN's
        status."""
        workspace = (resources.request_workspace(device, workspace_size) if workspace_size
                     else None)
        pack = ctypes.c_void_p()
        _check(self.lib, 'cudnnBackendCreateDescriptor', _VARIANT_PACK, ctypes.byref(pack))
        try:
            set_attribute = self.lib.cudnnBackendSetAttribute
            data = (ctypes.c_void_p * 3)(pointers['x'], pointers['w'], pointers['y'])
            space = ctypes.c_void_p(None if workspace is None else workspace.data.ptr)
            for name, kind, count, values in ((_PACK_UIDS, _T_INT64, 3, _PACK_ORDER),
                                              (_PACK_POINTERS, _T_VOID_PTR, 3, data),
                                              (_PACK_WORKSPACE, _T_VOID_PTR, 1, space)):
                status = set_attribute(pack, name, kind, count, ctypes.byref(values))
                if status != _SUCCESS:
                    return status
            status = self.lib.cudnnBackendFinalize(pack)
            if status != _SUCCESS:
                return status
            return self.lib.cudnnBackendExecute(self.handle, plan, pack)
        finally:
            self.lib.cudnnBackendDestroyDescriptor(pack)

    def run(self, device, pointers) -> bool:
        """Runs the convolution; the first call chooses the plan (cuDNN's first that runs,
        or under ``autotune`` the fastest of them on this call's data).

        Returns:
            bool: False when no plan runs this geometry (then the output is untouched, and
            the next calls return False at once).
        """
        if self.plan is None:
            return self._choose(device, pointers)
        if self.plan is False:
            return False
        status = self.execute(self.plan, self.workspace_size, device, pointers)
        if status != _SUCCESS:
            raise CudnnError(f'cudnnBackendExecute: '
                             f'{self.lib.cudnnGetErrorString(status).decode()} '
                             f'(status {status})')
        return True

    def _choose(self, device, pointers) -> bool:
        cupy = backend._cupy()
        best = None
        for plan, size in self.candidates():
            if self.execute(plan, size, device, pointers) != _SUCCESS:
                continue
            if not self.autotune:
                best = (plan, size)
                break
            start, stop = cupy.cuda.Event(), cupy.cuda.Event()
            start.record()
            for _ in range(3):
                self.execute(plan, size, device, pointers)
            stop.record()
            stop.synchronize()
            elapsed = cupy.cuda.get_elapsed_time(start, stop)
            if best is None or elapsed < best[2]:
                best = (plan, size, elapsed)
        if best is None:
            self.plan = False
            return False
        self.plan, self.workspace_size = best[:2]
        if self.autotune:
            self.run(device, pointers)
        return True


#: The plans made so far, by geometry (cleared when it holds too many, as under multi-scale
#: training with ever new sizes).
_plans: dict = {}
_MAX_PLANS = 4096


def _plan(lib, handle, key):
    """The plan of ``key``, made on first use; None where cuDNN refuses to describe the
    geometry (its descriptors do not finalize)."""
    plan = _plans.get(key, False)
    if plan is False:
        if len(_plans) >= _MAX_PLANS:
            _plans.clear()
        try:
            plan = _Plan(lib, handle, *key[1:])
        except CudnnError:
            plan = None
        _plans[key] = plan
    return plan


def _as_cudnn_layout(a):
    """``a`` itself when its layout is packed channels-first or channels-last, else a
    C-contiguous copy."""
    if a.flags.c_contiguous or _is_channels_last(a):
        return a
    return backend._cupy().ascontiguousarray(a)


def _is_channels_last(a) -> bool:
    return a.transpose((0,) + tuple(range(2, a.ndim)) + (1,)).flags.c_contiguous


def _packed_strides(shape, order):
    """The strides (in elements) of an array of ``shape`` packed with its axes in memory in
    ``order``, outermost first."""
    strides = [0] * len(shape)
    step = 1
    for axis in reversed(order):
        strides[axis] = step
        step *= shape[axis]
    return tuple(strides)


def _alignment(pointer: int) -> int:
    """The largest power of two up to 16 that divides ``pointer`` (cuDNN's vectorized
    engines want 16 bytes)."""
    return min(16, pointer & -pointer) if pointer else 16


def _described(a, one_d: bool):
    """The shape and strides (in elements) that describe ``a``, packed channels-first or
    channels-last (:func:`_as_cudnn_layout`), to cuDNN: a one-dimensional convolution's array
    gains a spatial axis of size 1 before its only one. The strides are the layout's own,
    also along axes of size 1, whose strides an array may hold at any value."""
    shape = a.shape[:2] + (1,) + a.shape[2:] if one_d else a.shape
    if a.flags.c_contiguous:
        return shape, _packed_strides(shape, range(len(shape)))
    return shape, _packed_strides(shape, (0,) + tuple(range(2, len(shape))) + (1,))


def _call(direction, x, W, y, pad, stride, dilate) -> bool:
    """Runs ``direction`` of the convolution of ``x`` with ``W`` into ``y``: the forward
    pass writes ``y``, the backward data pass ``x``, the backward filter pass ``W``. The
    groups are implied by the channels of ``x`` and ``W`` (``C // groups`` in ``W``).

    Returns:
        bool: False when cuDNN offers no plan for it (nothing written).
    """
    lib = _library()
    one_d = x.ndim == 3
    lead = (0,) if one_d else ()
    tensors = {role: _described(a, one_d) + (_alignment(a.data.ptr),)
               for role, a in (('x', x), ('w', W), ('y', y))}
    device_id = x.device.id
    handle = _handle(device_id)
    key = (device_id, direction, x.dtype, tuple(tensors.items()), lead + tuple(pad),
           (1,) * len(lead) + tuple(stride), (1,) * len(lead) + tuple(dilate),
           _allows_tensor_cores(x.dtype), bool(config.autotune))
    plan = _plan(lib, handle, key)
    if plan is None:
        return False
    with x.device:
        _check(lib, 'cudnnSetStream', handle, backend._cupy().cuda.get_current_stream().ptr)
        return plan.run(backend.get_device_from_array(x),
                        {'x': x.data.ptr, 'w': W.data.ptr, 'y': y.data.ptr})


def _output_size(x, W, pad, stride, dilate):
    return tuple((n + 2 * p - (k - 1) * d - 1) // s + 1
                 for n, k, s, p, d in zip(x.shape[2:], W.shape[2:], stride, pad, dilate))


def convolution_forward(x, W, pad, stride, dilate, out=None):
    """The convolution (cross-correlation, no bias) of ``x (N, C, *spatial)`` with
    ``W (O, C // groups, *ksize)``, each packed channels-first or channels-last (else
    copied); the groups are those that the channels of ``x`` and ``W`` imply, as in the two
    functions below.

    Args:
        out: None, or the array ``(N, O, *out_size)`` of x's dtype to write, packed
            channels-first or channels-last (a transposed view of a C-contiguous array).

    Returns:
        ``out``, or a new C-contiguous array ``(N, O, *out_size)`` of x's dtype; None when
        cuDNN offers no algorithm for this convolution (``out`` untouched).
    """
    x = _as_cudnn_layout(x)
    W = _as_cudnn_layout(W)
    shape = (x.shape[0], W.shape[0]) + _output_size(x, W, pad, stride, dilate)
    if out is None:
        out = backend._cupy().empty(shape, x.dtype)
    elif out.shape != shape or out.dtype != x.dtype or _as_cudnn_layout(out) is not out:
        raise ValueError(f'convolution_forward: out must be a packed {x.dtype} array of shape '
                         f'{shape}, but got {out.dtype} {out.shape} with strides {out.strides}')
    return out if _call('forward', x, W, out, pad, stride, dilate) else None


def convolution_backward_data(W, gy, x_shape, pad, stride, dilate):
    """The gradient of a convolution's input of shape ``x_shape`` from its weight
    ``W (O, C // groups, *ksize)`` and output gradient ``gy (N, O, *out)`` (the transposed
    convolution of ``gy`` with ``W``).

    Returns:
        A C-contiguous array of gy's dtype, or None when cuDNN offers no algorithm.
    """
    gy = _as_cudnn_layout(gy)
    W = _as_cudnn_layout(W)
    gx = backend._cupy().empty(tuple(x_shape), gy.dtype)
    return gx if _call('backward_data', gx, W, gy, pad, stride, dilate) else None


def convolution_backward_filter(x, gy, w_shape, pad, stride, dilate):
    """The gradient of a convolution's weight of shape ``w_shape`` from its input
    ``x (N, C, *spatial)`` and output gradient ``gy (N, O, *out)``.

    Returns:
        A C-contiguous array of x's dtype, or None when cuDNN offers no algorithm.
    """
    x = _as_cudnn_layout(x)
    gy = _as_cudnn_layout(gy)
    gW = backend._cupy().empty(tuple(w_shape), x.dtype)
    return gW if _call('backward_filter', x, gW, gy, pad, stride, dilate) else None

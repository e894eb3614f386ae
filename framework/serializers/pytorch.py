"""Reading PyTorch checkpoints (``torch.save`` files) without PyTorch, and without trusting them.

Two formats are read: the zip archive that ``torch.save`` writes since PyTorch 1.6
(``<name>/data.pkl``, one ``<name>/data/<key>`` record per storage, ``<name>/byteorder``), and
the legacy stream written before (magic number, protocol version, system info, the object's
pickle, the storage keys, then each storage's bytes).

The pickle is read with :class:`~framework.serializers._safe_pickle.RestrictedUnpickler`: only
the globals that rebuild tensors, parameters, storages, ``torch.Size`` and ``OrderedDict`` are
resolved; any other global (``os.system``, ``builtins.eval``...) raises
:class:`~framework.serializers.UnsafePickleError` before anything runs. Tensors come back as
NumPy arrays that are views of their storage, so tensors that shared a storage share memory.

Every size the file declares (the zip members' sizes, each storage's elements, the pickle's
lengths) is checked against the bytes the file holds before anything that size is allocated
(see :mod:`~framework.serializers._declared_sizes`).
"""

from __future__ import annotations

import collections
import io
import os
import pickle
import zipfile
from collections.abc import Mapping

import numpy

from framework.serializers._declared_sizes import (
    DeclaredSizeError,
    check_zip_expansion,
    remaining_bytes,
)
from framework.serializers._safe_pickle import BYTES_GLOBALS, RestrictedUnpickler

_LEGACY_MAGIC = 0x1950a86a20f9469cfc6c
_LEGACY_PROTOCOL = 1001
_ZIP_MAGIC = b'PK\x03\x04'


class _StorageType:
    """A storage class of the checkpoint (``torch.FloatStorage``...): the element dtype."""

    def __init__(self, name: str, dtype):
        self.name = name
        self.dtype = numpy.dtype(dtype)
        # bfloat16 has no NumPy dtype: its 16-bit patterns are read and widened to float32.
        self.array_dtype = numpy.dtype(numpy.float32) if name == 'BFloat16Storage' else self.dtype

    def decode(self, raw: bytes, numel: int, little_endian: bool) -> numpy.ndarray:
        """The storage's elements from its bytes, as a new writable array."""
        dtype = self.dtype.newbyteorder('<' if little_endian else '>')
        values = numpy.frombuffer(raw, dtype=dtype, count=numel)
        if self.name == 'BFloat16Storage':
            return (values.astype(numpy.uint32) << 16).view(numpy.float32)
        return values.astype(self.array_dtype)

    def __repr__(self):
        return f'torch.{self.name}'


_STORAGE_TYPES = {name: _StorageType(name, dtype) for name, dtype in [
    ('DoubleStorage', numpy.float64), ('FloatStorage', numpy.float32),
    ('HalfStorage', numpy.float16), ('BFloat16Storage', numpy.uint16),
    ('LongStorage', numpy.int64), ('IntStorage', numpy.int32), ('ShortStorage', numpy.int16),
    ('CharStorage', numpy.int8), ('ByteStorage', numpy.uint8), ('BoolStorage', numpy.bool_),
    ('ComplexFloatStorage', numpy.complex64), ('ComplexDoubleStorage', numpy.complex128),
    ('UntypedStorage', numpy.uint8),
]}


class _Storage:
    """A storage of the checkpoint: a 1-d array that its tensors are views of."""

    __slots__ = ('array',)

    def __init__(self, array: numpy.ndarray):
        self.array = array

    def __setstate__(self, state):
        raise pickle.UnpicklingError('load_torch: the checkpoint tries to modify a storage')


class _TypeMarker:
    """Stands for a tensor class named by the checkpoint (``torch.Tensor``...)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self):
        return self.name


def _rebuild_tensor(storage, storage_offset, size, stride, *_ignored) -> numpy.ndarray:
    """``torch._utils._rebuild_tensor(_v2)``: a strided view of ``storage``."""
    if not isinstance(storage, _Storage):
        raise pickle.UnpicklingError('load_torch: a tensor is rebuilt from something that is '
                                     f'not a storage ({type(storage).__name__})')
    size, stride = _dims('size', size), _dims('stride', stride)
    if len(size) != len(stride) or not isinstance(storage_offset, int) or storage_offset < 0:
        raise pickle.UnpicklingError(f'load_torch: invalid tensor layout: offset '
                                     f'{storage_offset!r}, size {size}, stride {stride}')
    array = storage.array
    if 0 in size:
        return numpy.empty(size, array.dtype)
    last = storage_offset + sum((n - 1) * s for n, s in zip(size, stride))
    if last >= array.size:
        raise pickle.UnpicklingError(
            f'load_torch: a tensor of size {size}, stride {stride} and offset {storage_offset} '
            f'reads past the end of its storage of {array.size} elements')
    return numpy.lib.stride_tricks.as_strided(
        array[storage_offset:], shape=size, strides=[s * array.itemsize for s in stride])


def _dims(what: str, dims) -> tuple[int, ...]:
    if not isinstance(dims, tuple) or not all(isinstance(d, int) and d >= 0 for d in dims):
        raise pickle.UnpicklingError(f'load_torch: a tensor {what} must be a tuple of '
                                     f'non-negative ints, but got {dims!r}')
    return dims


def _rebuild_parameter(data, requires_grad, backward_hooks, state=None):
    """``torch._utils._rebuild_parameter(_with_state)``: the parameter's array."""
    return data


def _rebuild_from_type(func, new_type, args, state):
    """``torch._tensor._rebuild_from_type_v2``: the tensor that ``func(*args)`` rebuilds."""
    return func(*args)


def _size(dims=()) -> tuple:
    """``torch.Size``: a tuple."""
    return tuple(dims)


_TORCH_GLOBALS = {
    ('torch._utils', '_rebuild_tensor'): _rebuild_tensor,
    ('torch._utils', '_rebuild_tensor_v2'): _rebuild_tensor,
    ('torch._utils', '_rebuild_parameter'): _rebuild_parameter,
    ('torch._utils', '_rebuild_parameter_with_state'): _rebuild_parameter,
    ('torch._tensor', '_rebuild_from_type_v2'): _rebuild_from_type,
    ('torch', 'Size'): _size,
    ('torch', 'Tensor'): _TypeMarker('torch.Tensor'),
    ('torch.nn.parameter', 'Parameter'): _TypeMarker('torch.nn.Parameter'),
    ('collections', 'OrderedDict'): collections.OrderedDict,
    **BYTES_GLOBALS,
    **{('torch', name): storage_type for name, storage_type in _STORAGE_TYPES.items()},
}


class _CheckpointUnpickler(RestrictedUnpickler):
    """Resolves the checkpoint's storage references through ``make_storage``."""

    def __init__(self, file, where: str, make_storage):
        super().__init__(file, _TORCH_GLOBALS, where)
        self._make_storage = make_storage

    def persistent_load(self, pid):
        if not (isinstance(pid, tuple) and len(pid) >= 5 and pid[0] == 'storage'):
            raise pickle.UnpicklingError(f'load_torch: unsupported reference {pid!r} in the '
                                         'checkpoint (only storages can be read)')
        storage_type, key, numel = pid[1], pid[2], pid[4]
        if not isinstance(storage_type, _StorageType):
            raise pickle.UnpicklingError(f'load_torch: {storage_type!r} is not a storage type')
        if not isinstance(key, str) or not isinstance(numel, int) or numel < 0:
            raise pickle.UnpicklingError(f'load_torch: invalid storage reference {pid!r}')
        return self._make_storage(storage_type, key, numel, pid[5:])


def load_torch(file):
    """Reads a PyTorch checkpoint written by ``torch.save``, without PyTorch.

    Args:
        file (str, os.PathLike or file object): the checkpoint (a seekable binary file).

    Returns:
        The saved object, with every tensor and parameter as a NumPy array (a view of its
        storage: tensors that shared a storage share memory; bfloat16 is widened to float32),
        ``torch.Size`` as a tuple, and dicts, ``OrderedDict``, lists, tuples and Python scalars
        as they were.

    Raises:
        UnsafePickleError: the checkpoint names a global other than the tensor, storage and
            container ones (e.g. ``os.system``); nothing of it has been run.
        DeclaredSizeError: the checkpoint declares more data than it holds (a storage larger
            than its bytes, a zip bomb); nothing that size has been allocated.
        pickle.UnpicklingError: the checkpoint is malformed (e.g. a tensor reads past its
            storage) or holds something other than storages in its references.
    """
    if isinstance(file, (str, os.PathLike)):
        with open(file, 'rb') as f:
            return _load(f, os.fspath(file))
    return _load(file, getattr(file, 'name', 'the file object'))


def _load(f, name: str):
    start = f.tell()
    magic = f.read(4)
    f.seek(start)
    if magic == _ZIP_MAGIC:
        return _load_zip(f, name)
    if magic[:1] == b'\x80':
        return _load_legacy(f, name)
    raise ValueError(f'load_torch: {name} is not a PyTorch checkpoint (neither the zip format '
                     'of torch.save nor its legacy format)')


def _load_zip(f, name: str):
    with zipfile.ZipFile(f) as archive:
        check_zip_expansion(archive, f'load_torch: {name}')
        pickles = [n for n in archive.namelist() if n.rsplit('/', 1)[-1] == 'data.pkl']
        if not pickles:
            raise ValueError(f'load_torch: {name} is a zip file without data.pkl, not a '
                             'PyTorch checkpoint')
        prefix = min(pickles, key=len)[:-len('data.pkl')]
        names = set(archive.namelist())
        little = (prefix + 'byteorder' not in names
                  or archive.read(prefix + 'byteorder').strip() == b'little')
        storages: dict[str, _Storage] = {}

        def make_storage(storage_type, key, numel, _):
            if key not in storages:
                record = f'{prefix}data/{key}'
                if record not in names:
                    raise pickle.UnpicklingError(f'load_torch: {name} lacks the record {record}')
                nbytes = numel * storage_type.dtype.itemsize
                declared = archive.getinfo(record).file_size
                if declared < nbytes:
                    raise DeclaredSizeError(
                        f'load_torch: {name}: storage {key} ({record}) declares {numel} '
                        f'elements of {storage_type!r} ({nbytes} bytes), but its record holds '
                        f'{declared} bytes')
                with archive.open(record) as data:
                    raw = data.read(nbytes)
                _check_size(name, key, storage_type, numel, len(raw))
                storages[key] = _Storage(storage_type.decode(raw, numel, little))
            return storages[key]

        data = io.BytesIO(archive.read(prefix + 'data.pkl'))
        return _CheckpointUnpickler(data, f'load_torch: {name}', make_storage).load()


def _check_size(name, key, storage_type, numel, nbytes):
    if nbytes < numel * storage_type.dtype.itemsize:
        raise DeclaredSizeError(f'load_torch: {name}: storage {key} holds {nbytes} bytes, too '
                                f'few for {numel} elements of {storage_type!r}')


def _load_legacy(f, name: str):
    where = f'load_torch: {name}'

    def header():
        return RestrictedUnpickler(f, {}, where).load()

    if header() != _LEGACY_MAGIC or header() != _LEGACY_PROTOCOL:
        raise ValueError(f'{where} is not a PyTorch checkpoint (wrong magic number or protocol '
                         'version)')
    sys_info = header()
    little = not isinstance(sys_info, dict) or sys_info.get('little_endian', True)
    roots: dict[str, tuple[_StorageType, _Storage]] = {}
    views: dict[str, _Storage] = {}

    def make_storage(storage_type, key, numel, view_metadata):
        if key not in roots:
            nbytes = numel * storage_type.dtype.itemsize
            declared = nbytes + sum(t.dtype.itemsize * s.array.size for t, s in roots.values())
            remaining = remaining_bytes(f)
            if declared > remaining:
                before = (f', {declared} bytes with the storages before it'
                          if declared != nbytes else '')
                raise DeclaredSizeError(
                    f'{where}: storage {key} declares {numel} elements of {storage_type!r} '
                    f'({nbytes} bytes){before}, but only {remaining} bytes of the file remain')
            roots[key] = storage_type, _Storage(numpy.empty(numel, storage_type.array_dtype))
        root = roots[key][1]
        if not view_metadata or view_metadata[0] is None:
            return root
        view_key, offset, view_size = view_metadata[0]
        if view_key not in views:
            views[view_key] = _Storage(root.array[offset:offset + view_size])
        return views[view_key]

    result = _CheckpointUnpickler(f, where, make_storage).load()
    for key in header():
        if key not in roots:
            raise pickle.UnpicklingError(f'{where}: data for the unknown storage {key!r}')
        storage_type, storage = roots[key]
        numel = int.from_bytes(f.read(8), 'little' if little else 'big')
        if numel != storage.array.size:
            raise pickle.UnpicklingError(f'{where}: storage {key} has {numel} elements, but '
                                         f'the object expects {storage.array.size}')
        raw = f.read(numel * storage_type.dtype.itemsize)
        _check_size(name, key, storage_type, numel, len(raw))
        storage.array[...] = storage_type.decode(raw, storage.array.size, little)
    return result


def load_torch_state_dict(file, key: str | None = None) -> dict[str, numpy.ndarray]:
    """Reads the arrays of a ``state_dict`` checkpoint (e.g. torchvision's) by name.

    Args:
        file (str, os.PathLike or file object): the checkpoint, read by :func:`load_torch`.
        key (str): where the state dict is inside the checkpoint, for checkpoints that wrap it
            (``{'model': state_dict, 'epoch': 3}``); None when the file is the state dict.

    Returns:
        dict: name (``'layer1.0.conv1.weight'``) -> array, in the checkpoint's order.

    Raises:
        KeyError: ``key`` is not in the checkpoint.
        ValueError: the object is not a mapping of names to tensors.
    """
    obj = load_torch(file)
    if key is not None:
        if not isinstance(obj, Mapping) or key not in obj:
            keys = list(obj) if isinstance(obj, Mapping) else type(obj).__name__
            raise KeyError(f'load_torch_state_dict: the checkpoint has no key {key!r}; it '
                           f'holds {keys}')
        obj = obj[key]
    if not isinstance(obj, Mapping):
        raise ValueError('load_torch_state_dict: the checkpoint is not a state dict but a '
                         f'{type(obj).__name__}')
    others = [k for k, v in obj.items() if not isinstance(v, numpy.ndarray)]
    if others:
        raise ValueError(f'load_torch_state_dict: the entries {others} are not tensors; if the '
                         'checkpoint wraps the state dict, pass its key as key=')
    return dict(obj)

"""Writing PyTorch checkpoints without PyTorch, for the reader's tests.

The checkpoints are written the way ``torch.save`` writes them (the zip format and the legacy
stream); the torch globals are written by name (``torch._utils._rebuild_tensor_v2``...), so
no torch module is needed to write them.
"""

import collections
import io
import pathlib
import pickle
import types
import zipfile

import numpy
import pytest

DATA = pathlib.Path(__file__).resolve().parents[2] / 'data'

_LEGACY_MAGIC = 0x1950a86a20f9469cfc6c
_LEGACY_PROTOCOL = 1001


class Global:
    """A global written by name."""

    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):
        raise AssertionError('a Global is written, never called')


class Storage:
    """A torch storage: a 1-d array, its torch class name and its key in the checkpoint;
    ``numel`` is the number of elements the checkpoint declares (the array's by default)."""

    def __init__(self, array, type_name, key, numel=None):
        self.array, self.type_name, self.key = numpy.ascontiguousarray(array), type_name, key
        self.numel = self.array.size if numel is None else numel


class Tensor:
    def __init__(self, storage, offset, size, stride):
        self.args = (storage, offset, tuple(size), tuple(stride))

    def __reduce_ex__(self, protocol):
        return (Global('torch._utils', '_rebuild_tensor_v2'),
                self.args + (False, collections.OrderedDict()))


class Parameter:
    def __init__(self, tensor):
        self.tensor = tensor

    def __reduce_ex__(self, protocol):
        return (Global('torch._utils', '_rebuild_parameter'),
                (self.tensor, True, collections.OrderedDict()))


class Size(tuple):
    def __reduce_ex__(self, protocol):
        return Global('torch', 'Size'), (tuple(self),)


class _Pickler(pickle._Pickler):
    """Writes :class:`Global` objects as GLOBAL opcodes and storages as persistent ids."""

    dispatch = dict(pickle._Pickler.dispatch)

    def __init__(self, file, legacy):
        super().__init__(file, protocol=2, fix_imports=False)
        self.legacy = legacy
        self.storages = {}

    def save_named_global(self, obj):
        self.write(pickle.GLOBAL + f'{obj.module}\n{obj.name}\n'.encode())
        self.memoize(obj)

    dispatch[Global] = save_named_global

    def persistent_id(self, obj):
        if not isinstance(obj, Storage):
            return None
        self.storages[obj.key] = obj
        pid = ('storage', Global('torch', obj.type_name), obj.key, 'cpu', obj.numel)
        return pid + (None,) if self.legacy else pid


def _dumps(obj, legacy):
    f = io.BytesIO()
    pickler = _Pickler(f, legacy)
    pickler.dump(obj)
    return f.getvalue(), pickler.storages


def write_zip_checkpoint(path, obj, data_pkl=None):
    """Writes ``obj`` in the zip format; ``data_pkl`` replaces its pickle when given."""
    pkl, storages = _dumps(obj, legacy=False)
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr('archive/data.pkl', pkl if data_pkl is None else data_pkl)
        archive.writestr('archive/byteorder', 'little')
        for key, storage in storages.items():
            archive.writestr(f'archive/data/{key}', storage.array.astype(
                storage.array.dtype.newbyteorder('<')).tobytes())
        archive.writestr('archive/version', '3\n')


def write_legacy_checkpoint(path, obj):
    """Writes ``obj`` in the legacy (PyTorch < 1.6) format."""
    pkl, storages = _dumps(obj, legacy=True)
    with open(path, 'wb') as f:
        for header in (_LEGACY_MAGIC, _LEGACY_PROTOCOL, {'little_endian': True}):
            pickle.dump(header, f, protocol=2)
        f.write(pkl)
        keys = sorted(storages)
        pickle.dump(keys, f, protocol=2)
        for key in keys:
            array = storages[key].array
            f.write(array.size.to_bytes(8, 'little'))
            f.write(array.astype(array.dtype.newbyteorder('<')).tobytes())


@pytest.fixture
def data_dir():
    """The test data folder (fixtures copied from the parity fixtures)."""
    return DATA


@pytest.fixture
def torch_writer():
    """What a test needs to write checkpoints: the stand-in classes and the writers."""
    return types.SimpleNamespace(
        Global=Global, Storage=Storage, Tensor=Tensor, Parameter=Parameter, Size=Size,
        write_zip=write_zip_checkpoint, write_legacy=write_legacy_checkpoint)

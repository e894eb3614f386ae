"""``load_torch`` on crafted checkpoints: big-endian files, legacy storage views, nested and
root archive layouts, and every refusal with its message matched whole."""

import collections
import io
import pickle
import re
import zipfile

import numpy
import pytest

from framework.serializers import DeclaredSizeError, load_torch, load_torch_state_dict
from framework.serializers.pytorch import _StorageType, _TypeMarker

_MAGIC = 0x1950a86a20f9469cfc6c


class _Global:
    def __init__(self, module, name):
        self.module, self.name = module, name

    def __call__(self, *args):
        raise AssertionError('a global is written, never called')


class _Ref:
    """A persistent id written as it is (any tuple)."""

    def __init__(self, *pid):
        self.pid = pid


class _Call:
    """``func(*args)`` written as a REDUCE of a global."""

    def __init__(self, func, *args):
        self.func, self.args = func, args

    def __reduce_ex__(self, protocol):
        return self.func, self.args


class _Pickler(pickle._Pickler):
    dispatch = dict(pickle._Pickler.dispatch)

    def __init__(self, file):
        super().__init__(file, protocol=2, fix_imports=False)

    def save_global_by_name(self, obj):
        self.write(pickle.GLOBAL + f'{obj.module}\n{obj.name}\n'.encode())
        self.memoize(obj)

    dispatch[_Global] = save_global_by_name

    def persistent_id(self, obj):
        return obj.pid if isinstance(obj, _Ref) else None


def _dumps(obj):
    f = io.BytesIO()
    _Pickler(f).dump(obj)
    return f.getvalue()


def _storage(type_name, key, numel, *view):
    return _Ref('storage', _Global('torch', type_name), key, 'cpu', numel, *view)


def _tensor(storage, offset, size, stride):
    return _Call(_Global('torch._utils', '_rebuild_tensor_v2'), storage, offset, size, stride,
                 False, collections.OrderedDict())


def _legacy(obj, storages, sys_info=None, big=False, keys=None):
    """A legacy checkpoint; ``storages``: key -> array (its bytes in the file's order)."""
    order = 'big' if big else 'little'
    f = io.BytesIO()
    info = {'little_endian': not big} if sys_info is None else sys_info
    for header in (_MAGIC, 1001, info):
        pickle.dump(header, f, protocol=2)
    f.write(_dumps(obj))
    pickle.dump(list(storages) if keys is None else keys, f, protocol=2)
    for array in storages.values():
        f.write(array.size.to_bytes(8, order))
        f.write(array.astype(array.dtype.newbyteorder('>' if big else '<')).tobytes())
    return f.getvalue()


def _zip(path, obj, storages, prefix='archive/', byteorder='little', extra=()):
    with zipfile.ZipFile(path, 'w') as archive:
        for name in extra:
            archive.writestr(name, _dumps({}))
        archive.writestr(prefix + 'data.pkl', _dumps(obj))
        if byteorder is not None:
            archive.writestr(prefix + 'byteorder', byteorder)
        for key, array in storages.items():
            dtype = array.dtype.newbyteorder('>' if byteorder == 'big' else '<')
            archive.writestr(f'{prefix}data/{key}', array.astype(dtype).tobytes())


def _load_bytes(tmp_path, data):
    path = tmp_path / 'c.pth'
    path.write_bytes(data)
    return path, load_torch(path)


def _refused(error, message, load, *args):
    with pytest.raises(error, match='^' + re.escape(message) + '$'):
        load(*args)


_W = numpy.array([1.5, -2.0, 3.25, 4.0, 5.5, -6.0], numpy.float32)


@pytest.mark.parametrize('big', [False, True])
def test_legacy_byte_order_from_the_system_info(tmp_path, big):
    obj = {'w': _tensor(_storage('FloatStorage', '0', 6), 0, (2, 3), (3, 1)),
           'n': _tensor(_storage('LongStorage', '1', 2), 0, (2,), (1,))}
    n = numpy.array([1, -(2 ** 40)], numpy.int64)
    _, loaded = _load_bytes(tmp_path, _legacy(obj, {'0': _W, '1': n}, big=big))
    numpy.testing.assert_array_equal(loaded['w'], _W.reshape(2, 3))
    numpy.testing.assert_array_equal(loaded['n'], n)
    assert loaded['w'].dtype == numpy.float32 and loaded['n'].dtype == numpy.int64


@pytest.mark.parametrize('sys_info', [{}, {'protocol_version': 1001}, 'not a dict'])
def test_legacy_is_little_endian_unless_said_otherwise(tmp_path, sys_info):
    obj = {'w': _tensor(_storage('FloatStorage', '0', 6), 0, (6,), (1,))}
    _, loaded = _load_bytes(tmp_path, _legacy(obj, {'0': _W}, sys_info=sys_info))
    numpy.testing.assert_array_equal(loaded['w'], _W)


def test_legacy_storage_views(tmp_path):
    # Before 1.6, a storage view was a sixth element of the reference: (view key, offset, size).
    a = _tensor(_storage('FloatStorage', '0', 6, ('v', 2, 3)), 0, (3,), (1,))
    b = _tensor(_storage('FloatStorage', '0', 6, ('v', 2, 3)), 1, (2,), (1,))
    root = _tensor(_storage('FloatStorage', '0', 6, None), 0, (6,), (1,))
    _, loaded = _load_bytes(tmp_path, _legacy({'a': a, 'b': b, 'root': root}, {'0': _W}))
    numpy.testing.assert_array_equal(loaded['a'], _W[2:5])
    numpy.testing.assert_array_equal(loaded['b'], _W[3:5])
    numpy.testing.assert_array_equal(loaded['root'], _W)
    loaded['a'][1] = 100.0
    assert loaded['b'][0] == 100.0 and loaded['root'][3] == 100.0
    # A view past the end of its root is cut there: the tensor then reads past it.
    c = _tensor(_storage('FloatStorage', '0', 6, ('c', 4, 9)), 0, (3,), (1,))
    with pytest.raises(pickle.UnpicklingError, match='reads past the end of its storage of 2 '):
        _load_bytes(tmp_path, _legacy({'c': c}, {'0': _W}))


@pytest.mark.parametrize('byteorder', ['big', 'little', None])
def test_zip_byte_order(tmp_path, byteorder):
    obj = {'w': _tensor(_storage('FloatStorage', '0', 6), 0, (2, 3), (3, 1))}
    _zip(tmp_path / 'c.pth', obj, {'0': _W}, byteorder=byteorder)
    numpy.testing.assert_array_equal(load_torch(tmp_path / 'c.pth')['w'], _W.reshape(2, 3))


@pytest.mark.parametrize('prefix, extra', [
    ('', ()), ('a/b/', ()), ('b/', ('a/c/data.pkl',)), ('model/', ('model/extra/data.pkl',))])
def test_zip_layouts(tmp_path, prefix, extra):
    # The checkpoint's pickle is the data.pkl with the shortest path (others are not read).
    obj = {'w': _tensor(_storage('FloatStorage', '0', 6), 0, (6,), (1,))}
    _zip(tmp_path / 'c.pth', obj, {'0': _W}, prefix=prefix, extra=extra)
    numpy.testing.assert_array_equal(load_torch(tmp_path / 'c.pth')['w'], _W)


def test_empty_storage(tmp_path):
    obj = {'e': _tensor(_storage('FloatStorage', '0', 0), 0, (0,), (1,))}
    _zip(tmp_path / 'c.pth', obj, {'0': numpy.zeros(0, numpy.float32)})
    assert load_torch(tmp_path / 'c.pth')['e'].shape == (0,)
    _, loaded = _load_bytes(tmp_path, _legacy(obj, {'0': numpy.zeros(0, numpy.float32)}))
    assert loaded['e'].shape == (0,)


def _zip_refused(tmp_path, obj, message, error=pickle.UnpicklingError, storages=None):
    path = tmp_path / 'z.pth'
    _zip(path, obj, {'0': _W} if storages is None else storages)
    _refused(error, message.format(path=path), load_torch, path)


_F = _Global('torch', 'FloatStorage')


@pytest.mark.parametrize('pid, message', [
    (('module', _F, '0', 'cpu', 6),
     "unsupported reference ('module', torch.FloatStorage, '0', 'cpu', 6) in the checkpoint "
     '(only storages can be read)'),
    (('storage', _F, '0', 'cpu'),
     "unsupported reference ('storage', torch.FloatStorage, '0', 'cpu') in the checkpoint "
     '(only storages can be read)'),
    (('storage', 'FloatStorage', '0', 'cpu', 6), "'FloatStorage' is not a storage type"),
    (('storage', _F, '0', 'cpu', 6.0),
     "invalid storage reference ('storage', torch.FloatStorage, '0', 'cpu', 6.0)"),
    (('storage', _F, 0, 'cpu', 6),
     "invalid storage reference ('storage', torch.FloatStorage, 0, 'cpu', 6)"),
    (('storage', _F, '0', 'cpu', -1),
     "invalid storage reference ('storage', torch.FloatStorage, '0', 'cpu', -1)"),
])
def test_invalid_storage_references(tmp_path, pid, message):
    obj = {'w': _tensor(_Ref(*pid), 0, (1,), (1,))}
    _zip_refused(tmp_path, obj, 'load_torch: ' + message)


_S = _storage('FloatStorage', '0', 6)


@pytest.mark.parametrize('args, message', [
    ((5, 0, (1,), (1,)), 'a tensor is rebuilt from something that is not a storage (int)'),
    ((_S, 0, [2], (1,)), 'a tensor size must be a tuple of non-negative ints, but got [2]'),
    ((_S, 0, (2.0,), (1,)), 'a tensor size must be a tuple of non-negative ints, but got (2.0,)'),
    ((_S, 0, (-1,), (1,)), 'a tensor size must be a tuple of non-negative ints, but got (-1,)'),
    ((_S, 0, (2,), [1]), 'a tensor stride must be a tuple of non-negative ints, but got [1]'),
    ((_S, 0, (2, 3), (1,)), 'invalid tensor layout: offset 0, size (2, 3), stride (1,)'),
    ((_S, 1.0, (2,), (1,)), 'invalid tensor layout: offset 1.0, size (2,), stride (1,)'),
    ((_S, -1, (2,), (1,)), 'invalid tensor layout: offset -1, size (2,), stride (1,)'),
    ((_S, 0, (7,), (1,)), 'a tensor of size (7,), stride (1,) and offset 0 reads past the end '
                          'of its storage of 6 elements'),
    ((_S, 4, (3,), (1,)), 'a tensor of size (3,), stride (1,) and offset 4 reads past the end '
                          'of its storage of 6 elements'),
])
def test_invalid_tensor_layouts(tmp_path, args, message):
    obj = {'w': _Call(_Global('torch._utils', '_rebuild_tensor_v2'), *args)}
    _zip_refused(tmp_path, obj, 'load_torch: ' + message)


def test_tensor_ending_on_the_last_element(tmp_path):
    obj = {'w': _tensor(_S, 3, (3,), (1,)), 'v': _tensor(_S, 1, (2, 2), (1, 3))}
    _zip(tmp_path / 'c.pth', obj, {'0': _W})
    loaded = load_torch(tmp_path / 'c.pth')
    numpy.testing.assert_array_equal(loaded['w'], _W[3:])
    numpy.testing.assert_array_equal(loaded['v'], [[_W[1], _W[4]], [_W[2], _W[5]]])


def test_storage_modified_by_the_pickle(tmp_path):
    data = _dumps(_S)
    assert data.endswith(pickle.STOP)
    data = data[:-1] + pickle.EMPTY_DICT + pickle.BUILD + pickle.STOP
    path = tmp_path / 'z.pth'
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr('archive/data.pkl', data)
        archive.writestr('archive/data/0', _W.tobytes())
    _refused(pickle.UnpicklingError, 'load_torch: the checkpoint tries to modify a storage',
             load_torch, path)


def test_zip_refusals(tmp_path):
    path = tmp_path / 'none.pth'
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr('archive/model.pkl', b'')
    _refused(ValueError, f'load_torch: {path} is a zip file without data.pkl, not a PyTorch '
                         'checkpoint', load_torch, path)
    path = tmp_path / 'lacks.pth'
    _zip(path, {'w': _tensor(_storage('FloatStorage', '7', 6), 0, (6,), (1,))}, {'0': _W})
    _refused(pickle.UnpicklingError, f'load_torch: {path} lacks the record archive/data/7',
             load_torch, path)


def test_not_a_checkpoint_names_the_file(tmp_path):
    tail = ' is not a PyTorch checkpoint (neither the zip format of torch.save nor its legacy ' \
           'format)'
    _refused(ValueError, 'load_torch: the file object' + tail, load_torch, io.BytesIO(b'hello'))
    path = tmp_path / 'x.pth'
    path.write_bytes(b'hello')
    with open(path, 'rb') as f:
        _refused(ValueError, f'load_torch: {path}' + tail, load_torch, f)


def test_legacy_refusals(tmp_path):
    path = tmp_path / 'c.pth'
    obj = {'w': _tensor(_storage('FloatStorage', '0', 6), 0, (6,), (1,))}
    good = _legacy(obj, {'0': _W})

    def refused(data, error, message):
        path.write_bytes(data)
        _refused(error, f'load_torch: {path}' + message, load_torch, path)

    wrong = io.BytesIO()
    for header in (_MAGIC, 1000, {}):
        pickle.dump(header, wrong, protocol=2)
    refused(wrong.getvalue(), ValueError,
            ' is not a PyTorch checkpoint (wrong magic number or protocol version)')
    refused(_legacy(obj, {'0': _W}, keys=['0', '9']), pickle.UnpicklingError,
            ": data for the unknown storage '9'")
    refused(_legacy(obj, {'0': _W[:5]}), pickle.UnpicklingError,
            ': storage 0 has 5 elements, but the object expects 6')
    # The last bytes cut: the storage's header passes, its data is short.
    refused(good[:-4], DeclaredSizeError,
            ': storage 0 holds 20 bytes, too few for 6 elements of torch.FloatStorage')
    refused(good[:-23], DeclaredSizeError,
            ': storage 0 holds 1 bytes, too few for 6 elements of torch.FloatStorage')
    evil = _legacy({'w': _Call(_Global('os', 'system'), 'true')}, {})
    refused(evil, pickle.UnpicklingError,
            ': refusing to load the global os.system (only globals of _codecs, collections, '
            'torch, torch._tensor, torch._utils, torch.nn.parameter are allowed here). The file '
            'may be malicious; nothing of it was run')


def test_legacy_storages_together_larger_than_the_file(tmp_path):
    # Each storage fits in what remains, but not with the one before it.
    obj = {'a': _tensor(_storage('FloatStorage', '0', 100), 0, (100,), (1,)),
           'b': _tensor(_storage('DoubleStorage', '1', 100), 0, (100,), (1,))}
    data = _legacy(obj, {'0': numpy.zeros(100, numpy.float32),
                         '1': numpy.zeros(100, numpy.float64)})
    path = tmp_path / 'c.pth'
    path.write_bytes(data[:-500])
    _refused(DeclaredSizeError,
             f'load_torch: {path}: storage 1 declares 100 elements of torch.DoubleStorage '
             '(800 bytes), 1200 bytes with the storages before it, but only 1008 bytes of the '
             'file remain', load_torch, path)
    # Exactly enough bytes remain for the storages (not for their headers): the data is short.
    path.write_bytes(data[:-308])
    _refused(DeclaredSizeError, f'load_torch: {path}: storage 1 holds 492 bytes, too few for '
                                '100 elements of torch.DoubleStorage', load_torch, path)


def test_state_dict_refusals(tmp_path, torch_writer):
    path = tmp_path / 'list.pth'
    torch_writer.write_zip(path, [1, 2])
    _refused(ValueError, 'load_torch_state_dict: the checkpoint is not a state dict but a list',
             load_torch_state_dict, path)
    with pytest.raises(KeyError, match=re.escape(
            "load_torch_state_dict: the checkpoint has no key 'model'; it holds list")):
        load_torch_state_dict(path, key='model')
    path = tmp_path / 'mixed.pth'
    torch_writer.write_zip(path, {'epoch': 3})
    _refused(ValueError, "load_torch_state_dict: the entries ['epoch'] are not tensors; if the "
                         'checkpoint wraps the state dict, pass its key as key=',
             load_torch_state_dict, path)


def test_storage_types_and_markers():
    bf16 = _StorageType('BFloat16Storage', numpy.uint16)
    assert bf16.name == 'BFloat16Storage' and repr(bf16) == 'torch.BFloat16Storage'
    assert bf16.dtype == numpy.uint16 and bf16.array_dtype == numpy.float32
    f = _StorageType('DoubleStorage', numpy.float64)
    assert f.dtype == numpy.float64 and f.array_dtype == numpy.float64
    assert repr(_TypeMarker('torch.Tensor')) == 'torch.Tensor'

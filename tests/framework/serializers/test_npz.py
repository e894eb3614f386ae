import io
import os
import pickle
import zipfile

import numpy
import numpy.lib.format as npy_format
import pytest

import framework.functions as F
import framework.links as L
from framework import Chain, ChainList, Link, Parameter, backend, using_config
from framework.serializers import (
    DictionarySerializer,
    NpzDeserializer,
    NpzMismatchError,
    load_npz,
    save_npz,
)
from framework.testing.emulated_device import EmulatedArray


class Affine(Link):
    """A link with two parameters and persistents of every kind."""

    def __init__(self, n_in=3, n_out=2, seed=0):
        super().__init__()
        rng = numpy.random.RandomState(seed)
        with self.init_scope():
            self.W = Parameter(rng.standard_normal((n_out, n_in)).astype(numpy.float32))
            self.b = Parameter(rng.standard_normal(n_out).astype(numpy.float32))
        self.add_persistent('avg', rng.uniform(size=n_out).astype(numpy.float32))
        self.add_persistent('scale', numpy.array(rng.uniform(), numpy.float64))
        self.add_persistent('count', seed)
        self.add_persistent('rate', 0.5 + seed)
        self.add_persistent('flag', bool(seed % 2))
        self.add_persistent('decay', numpy.float32(0.9 + seed))


class Lazy(Link):
    """A link whose parameter is initialized by its first input (or by loading)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.W = Parameter()


def _model(seed=0):
    model = Chain(fc=Affine(seed=seed), blocks=ChainList(Affine(2, 2, seed + 1),
                                                         Affine(2, 4, seed + 2)))
    with model.init_scope():
        model.lazy = Lazy()
    return model


KEYS = {f'{prefix}/{name}' for prefix in ('fc', 'blocks/0', 'blocks/1')
        for name in ('W', 'b', 'avg', 'scale', 'count', 'rate', 'flag', 'decay')} | {'lazy/W'}


def _values(model):
    """Every parameter and persistent by path, copied to the host."""
    values = {path: backend.to_cpu(p.array) for path, p in model.namedparams()}
    for path, value in model.namedpersistents():
        values[path] = backend.to_cpu(value) if backend.is_array(value) else value
    return values


def _assert_same_values(a, b):
    va, vb = _values(a), _values(b)
    assert va.keys() == vb.keys()
    for key, value in va.items():
        if isinstance(value, numpy.ndarray):
            numpy.testing.assert_array_equal(vb[key], value, err_msg=key)
        else:
            assert type(vb[key]) is type(value) and vb[key] == value, key


def test_dictionary_serializer_layout():
    target = {}
    serializer = DictionarySerializer(target)
    assert serializer['/x/'].path == 'x/' and serializer['x']['y'].path == 'x/y/'
    data = numpy.ones((2, 3), numpy.float32)
    assert serializer['a']('/w', data) is data
    assert serializer('n', 10) == 10
    assert serializer('none', None) is None
    assert target['a/w'] is data
    assert target['n'].shape == () and target['n'].dtype == numpy.int64 and target['n'] == 10
    assert target['none'].dtype == object and target['none'][()] is None
    with pytest.raises(TypeError, match=r"DictionarySerializer: the value of 'bad' must be .* "
                                        r'but got list'):
        serializer('bad', [1, 2])


def test_save_npz_writes_chainer_keys(tmp_path):
    model = _model()
    save_npz(tmp_path / 'm.npz', model)
    with numpy.load(tmp_path / 'm.npz', allow_pickle=True) as f:
        assert set(f.files) == KEYS
        numpy.testing.assert_array_equal(f['blocks/1/W'], model.blocks[1].W.array)
        assert f['fc/count'].dtype == numpy.int64 and f['fc/count'].shape == ()
        assert f['lazy/W'][()] is None  # an uninitialized parameter, as Chainer writes it


@pytest.mark.parametrize('compression', [True, False])
def test_round_trip(tmp_path, compression):
    source = _model(seed=0)
    source.lazy.W.initialize((2, 2))
    source.lazy.W.array[...] = 7
    path = tmp_path / 'm.npz'
    save_npz(str(path), source, compression=compression)
    with zipfile.ZipFile(path) as archive:
        stored = {i.compress_type for i in archive.infolist()}
    assert stored == {zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED}
    target = _model(seed=10)
    load_npz(path, target)
    _assert_same_values(source, target)
    assert target.lazy.W.shape == (2, 2)


def test_round_trip_through_file_objects():
    source, target = _model(seed=0), _model(seed=5)
    buffer = io.BytesIO()
    save_npz(buffer, source)
    buffer.seek(0)
    load_npz(buffer, target)
    _assert_same_values(source, target)


def test_uninitialized_stays_uninitialized(tmp_path):
    save_npz(tmp_path / 'm.npz', _model())
    target = _model(seed=3)
    load_npz(tmp_path / 'm.npz', target)
    assert not target.lazy.W.is_initialized


def test_devices(tmp_path):
    source = _model(seed=1).to_device('@emulated')
    save_npz(tmp_path / 'm.npz', source)
    with numpy.load(tmp_path / 'm.npz', allow_pickle=True) as f:
        assert all(type(f[k]) is numpy.ndarray for k in f.files)
    target = _model(seed=2).to_device('@emulated')
    load_npz(tmp_path / 'm.npz', target)
    assert isinstance(target.fc.W.array, EmulatedArray)
    assert isinstance(target.blocks[0].avg, EmulatedArray)
    _assert_same_values(source, target)
    host = _model(seed=3)
    load_npz(tmp_path / 'm.npz', host)
    assert type(host.fc.W.array) is numpy.ndarray
    _assert_same_values(source, host)


def test_zero_dim_arrays_and_scalar_types(tmp_path):
    source = _model(seed=1)
    numpy.savez(tmp_path / 'm.npz', **{'fc/scale': numpy.array(2.5), 'fc/count': numpy.int64(4),
                                       'fc/rate': numpy.float32(0.25), 'fc/flag': True})
    load_npz(tmp_path / 'm.npz', source.fc, path='fc/', strict=False)
    assert source.fc.scale.shape == () and source.fc.scale == 2.5
    assert type(source.fc.count) is int and source.fc.count == 4
    assert type(source.fc.rate) is float and source.fc.rate == 0.25
    assert source.fc.flag is True


def test_path_loads_part_of_a_snapshot(tmp_path):
    source, target = _model(seed=0), _model(seed=4)
    snapshot = {}
    DictionarySerializer(snapshot, 'updater/model:main/').save(source)
    snapshot['updater/iteration'] = numpy.asarray(3)
    numpy.savez(tmp_path / 'snapshot', **snapshot)
    load_npz(tmp_path / 'snapshot.npz', target, path='updater/model:main/')
    _assert_same_values(source, target)


def test_a_mismatch_under_a_path_lists_the_unread_keys_under_it_only(tmp_path):
    source = _model(seed=0)
    snapshot = {}
    DictionarySerializer(snapshot, 'updater/model:main/').save(source)
    DictionarySerializer(snapshot, 'updater/optimizer:main/').save(source)
    snapshot['updater/iteration'] = numpy.asarray(3)
    numpy.savez(tmp_path / 'snapshot', **snapshot)
    target = _model(seed=4)
    target.fc.add_param('V', (4,))
    del target.blocks[0].avg
    with pytest.raises(NpzMismatchError) as info:
        load_npz(tmp_path / 'snapshot.npz', target, path='updater/model:main/')
    assert info.value.unread == ['updater/model:main/blocks/0/avg']
    assert str(info.value).endswith(
        "keys of the file that nothing read (1): updater/model:main/blocks/0/avg\n"
        'Pass strict=False to leave missing values as they are, or ignore_names to skip some '
        'keys.')


def test_strict_mismatch_names_every_problem_at_once(tmp_path):
    save_npz(tmp_path / 'm.npz', _model())
    target = _model()
    with target.init_scope():
        target.extra = Affine()  # missing from the file: seven keys
    target.blocks[1].W.array = numpy.zeros((3, 2), numpy.float32)
    target.fc.add_param('V', (4,))
    del target.blocks[0].avg
    with pytest.raises(NpzMismatchError) as info:
        load_npz(tmp_path / 'm.npz', target)
    message = str(info.value)
    assert 'keys missing from the file (9): fc/V, extra/W, extra/b, extra/avg' in message
    assert 'shape mismatches (1): blocks/1/W: (4, 2) in the file, (3, 2) in the object' in message
    assert 'keys of the file that nothing read (1): blocks/0/avg' in message
    assert isinstance(info.value, KeyError) and isinstance(info.value, ValueError)
    assert info.value.summary(2) == (
        '9 keys missing from the file (e.g. fc/V; extra/W), 1 shape mismatches (e.g. '
        'blocks/1/W: (4, 2) in the file, (3, 2) in the object), 1 keys of the file that '
        'nothing read (e.g. blocks/0/avg)')


def test_missing_value_the_object_does_not_have_stops_the_loading(tmp_path):
    source = _model()
    del source.lazy.W
    save_npz(tmp_path / 'm.npz', source)
    target = _model()
    target.fc.b.array = numpy.zeros(5, numpy.float32)
    with pytest.raises(NpzMismatchError) as info:
        load_npz(tmp_path / 'm.npz', target)
    message = str(info.value)
    assert 'keys missing from the file (1): lazy/W' in message
    assert "loading stopped at 'lazy/W'" in message
    assert 'shape mismatches (1): fc/b: (2,) in the file, (5,) in the object' in message


def test_mismatched_values_are_not_loaded_the_others_are(tmp_path):
    source = _model(seed=0)
    save_npz(tmp_path / 'm.npz', source)
    target = _model(seed=1)
    target.fc.add_param('V', (4,))
    with pytest.raises(NpzMismatchError, match='fc/V'):
        load_npz(tmp_path / 'm.npz', target)
    numpy.testing.assert_array_equal(target.fc.W.array, source.fc.W.array)


def test_non_strict_leaves_missing_values(tmp_path):
    save_npz(tmp_path / 'm.npz', _model(seed=0))
    target = _model(seed=1)
    target.fc.add_param('V', (4,), initializer=numpy.float32(3))
    load_npz(tmp_path / 'm.npz', target, strict=False)
    numpy.testing.assert_array_equal(target.fc.V.array, numpy.full(4, 3, numpy.float32))
    numpy.testing.assert_array_equal(target.fc.W.array, _model(seed=0).fc.W.array)


def test_unread_keys_alone_are_not_an_error(tmp_path):
    # As in Chainer, strict=True is about what the object needs; extra keys are listed only
    # in the message of a real mismatch.
    save_npz(tmp_path / 'm.npz', _model(seed=0))
    target = Chain(fc=Affine(seed=2))
    load_npz(tmp_path / 'm.npz', target)
    numpy.testing.assert_array_equal(target.fc.W.array, _model(seed=0).fc.W.array)


@pytest.mark.parametrize('ignore_names', [
    'fc/W', ['fc/W', 'blocks/1/b'], ('fc/W',), lambda key: key.endswith('fc/W'),
])
def test_ignore_names(tmp_path, ignore_names):
    save_npz(tmp_path / 'm.npz', _model(seed=0))
    target = _model(seed=1)
    target.fc.W.array = numpy.zeros((9, 9), numpy.float32)  # would mismatch if read
    load_npz(tmp_path / 'm.npz', target, ignore_names=ignore_names)
    assert (target.fc.W.array == 0).all()
    numpy.testing.assert_array_equal(target.fc.b.array, _model(seed=0).fc.b.array)


def test_ignore_names_of_a_wrong_type(tmp_path):
    save_npz(tmp_path / 'm.npz', _model())
    with pytest.raises(ValueError, match='ignore_names must be a string, a callable or a list '
                                         'of them, but got an item of type int'):
        load_npz(tmp_path / 'm.npz', _model(), ignore_names=[1])


def test_unsafe_casts_are_refused(tmp_path):
    numpy.savez(tmp_path / 'm.npz', **{'count': numpy.asarray(1.5), 'W': numpy.ones((2, 3)),
                                       'b': numpy.ones(2, numpy.float64), 'avg': numpy.ones(2)})
    link = Affine()
    link.W.array = numpy.zeros((2, 3), numpy.int32)
    with pytest.raises(NpzMismatchError) as info:
        load_npz(tmp_path / 'm.npz', link, strict=False)
    message = str(info.value)
    assert 'W: float64 in the file cannot be cast to int32' in message
    assert 'count: float64 in the file cannot be cast safely to the int' in message
    assert isinstance(info.value, TypeError)
    numpy.testing.assert_array_equal(link.b.array, numpy.ones(2, numpy.float32))


def test_deserializer_called_directly_on_numpy_load(tmp_path):
    data = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    numpy.savez(tmp_path / 'm.npz', **{'y': data, 'z': numpy.asarray(10)})
    with numpy.load(tmp_path / 'm.npz') as f:
        deserializer = NpzDeserializer(f)
        assert deserializer['/x/'].path == 'x/'
        y = numpy.empty((2, 3), numpy.float32)
        assert deserializer('/y', y) is y
        numpy.testing.assert_array_equal(y, data)
        numpy.testing.assert_array_equal(deserializer('y', None), data)
        assert deserializer('z', 5) == 10
        with pytest.raises(KeyError, match='keys missing from the file .*: w'):
            deserializer('w', y)
        assert NpzDeserializer(f, strict=False)('w', y) is y
        with pytest.raises(ValueError, match=r'y: \(2, 3\) in the file, \(3,\) in the object'):
            deserializer('y', numpy.empty(3, numpy.float32))


def test_none_written_by_numpy_1_is_read(tmp_path):
    # NumPy 1 (what Chainer ran on) pickles object arrays with numpy.core.multiarray.
    pickled = pickle.dumps(numpy.asarray(None), protocol=3)
    pickle_none = pickled.replace(b'numpy._core.multiarray\n', b'numpy.core.multiarray\n')
    assert b'numpy.core.multiarray' in pickle_none
    with zipfile.ZipFile(tmp_path / 'm.npz', 'w') as archive, archive.open('W.npy', 'w') as f:
        npy_format.write_array_header_1_0(
            f, {'descr': '|O', 'fortran_order': False, 'shape': ()})
        f.write(pickle_none)
    lazy = Lazy()
    load_npz(tmp_path / 'm.npz', lazy)
    assert not lazy.W.is_initialized


def test_save_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / 'm.npz'
    save_npz(path, _model(seed=0))
    before = path.read_bytes()
    os.chmod(path, 0o640)

    def crash(f, **arrays):
        f.write(b'partial')
        raise KeyboardInterrupt

    monkeypatch.setattr(numpy, 'savez_compressed', crash)
    with pytest.raises(KeyboardInterrupt):
        save_npz(path, _model(seed=1))
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == ['m.npz']
    monkeypatch.undo()
    save_npz(path, _model(seed=1))
    assert path.read_bytes() != before
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert os.listdir(tmp_path) == ['m.npz']


def test_round_trip_of_layers_initializes_lazy_ones(tmp_path):
    x = numpy.random.RandomState(0).standard_normal((2, 3, 5, 5)).astype(numpy.float32)

    def make():
        return Chain(conv=L.Convolution2D(None, 4, 3), bn=L.BatchNormalization(4),
                     fc=L.Linear(None, 2))

    def forward(chain):
        return chain.fc(F.relu(chain.bn(chain.conv(x)))).array

    source = make()
    forward(source)  # initializes the lazy parameters and updates the running statistics
    save_npz(tmp_path / 'm.npz', source)
    target = make()
    load_npz(tmp_path / 'm.npz', target)
    assert target.fc.W.shape == (2, 36)
    with using_config('train', False):
        numpy.testing.assert_array_equal(forward(target), forward(source))

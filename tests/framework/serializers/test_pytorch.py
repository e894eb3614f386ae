import collections
import io
import pickle

import numpy
import pytest

from framework.serializers import load_torch, load_torch_state_dict


@pytest.fixture
def expected(data_dir):
    with numpy.load(data_dir / 'reader_fixture_expected.npz') as f:
        return {key: f[key] for key in f.files}


def _assert_arrays_equal(arrays, expected):
    assert list(arrays) == list(expected)
    for key, want in expected.items():
        got = arrays[key]
        assert isinstance(got, numpy.ndarray), key
        assert got.dtype == want.dtype and got.shape == want.shape, key
        numpy.testing.assert_array_equal(got, want, err_msg=key)


def test_torch_save_fixture_reads_exactly(data_dir, expected):
    state = load_torch(data_dir / 'reader_fixture.pth')
    _assert_arrays_equal(state, expected)
    # Views keep their storage: tensors that shared one share memory, as in torch.
    assert numpy.shares_memory(state['shared.a'], state['shared.b_view'])
    assert numpy.shares_memory(state['shared.a'], state['transposed'])
    state['shared.a'][2, 1] = 100.0
    assert state['shared.b_view'][0, 0] == 100.0
    assert state['transposed'][1, 2] == 100.0


def test_nested_fixture_reads_exactly_from_a_file_object(data_dir, expected):
    with open(data_dir / 'reader_fixture_nested.pth', 'rb') as f:
        checkpoint = load_torch(io.BytesIO(f.read()))
    assert checkpoint['epoch'] == 3 and checkpoint['arch'] == 'demo'
    _assert_arrays_equal(checkpoint['model'], expected)


def test_state_dict_helper(data_dir, expected):
    _assert_arrays_equal(load_torch_state_dict(data_dir / 'reader_fixture.pth'), expected)
    nested = data_dir / 'reader_fixture_nested.pth'
    _assert_arrays_equal(load_torch_state_dict(nested, key='model'), expected)
    with pytest.raises(ValueError, match=r"entries \['model', 'epoch', 'arch'\] are not "
                                         r'tensors.*key='):
        load_torch_state_dict(nested)
    with pytest.raises(KeyError, match="no key 'state_dict'.*'model', 'epoch', 'arch'"):
        load_torch_state_dict(nested, key='state_dict')


def _containers(w):
    weight = w.Storage(numpy.arange(6, dtype=numpy.float32), 'FloatStorage', '0')
    steps = w.Storage(numpy.array([7], dtype=numpy.int64), 'LongStorage', '1')
    return collections.OrderedDict([
        ('weight', w.Parameter(w.Tensor(weight, 0, (2, 3), (3, 1)))),
        ('shape', w.Size((2, 3))),
        ('list', [w.Tensor(weight, 1, (2,), (2,)), 'text', 1.5, None, b'\x00\xff']),
        ('tuple', (w.Tensor(steps, 0, (), ()), True)),
        ('empty', w.Tensor(weight, 0, (0, 4), (4, 1))),
        ('nested', {'inner': collections.OrderedDict(x=w.Tensor(weight, 5, (1,), (1,)))}),
    ])


def _check_containers(obj):
    assert type(obj) is collections.OrderedDict
    numpy.testing.assert_array_equal(obj['weight'], [[0, 1, 2], [3, 4, 5]])
    assert obj['shape'] == (2, 3) and type(obj['shape']) is tuple
    numpy.testing.assert_array_equal(obj['list'][0], [1, 3])
    assert obj['list'][1:] == ['text', 1.5, None, b'\x00\xff']
    steps, flag = obj['tuple']
    assert steps.shape == () and steps.dtype == numpy.int64 and steps == 7 and flag is True
    assert obj['empty'].shape == (0, 4) and obj['empty'].dtype == numpy.float32
    assert type(obj['nested']['inner']) is collections.OrderedDict
    numpy.testing.assert_array_equal(obj['nested']['inner']['x'], [5])
    assert numpy.shares_memory(obj['weight'], obj['list'][0])


@pytest.mark.parametrize('fmt', ['zip', 'legacy'])
def test_parameters_sizes_and_containers(tmp_path, torch_writer, fmt):
    path = tmp_path / 'c.pth'
    getattr(torch_writer, 'write_' + fmt)(path, _containers(torch_writer))
    _check_containers(load_torch(path))


_DTYPES = [
    ('DoubleStorage', numpy.float64), ('FloatStorage', numpy.float32),
    ('HalfStorage', numpy.float16), ('LongStorage', numpy.int64), ('IntStorage', numpy.int32),
    ('ShortStorage', numpy.int16), ('CharStorage', numpy.int8), ('ByteStorage', numpy.uint8),
    ('BoolStorage', numpy.bool_),
]


@pytest.mark.parametrize('fmt', ['zip', 'legacy'])
def test_every_dtype(tmp_path, torch_writer, fmt):
    w = torch_writer
    arrays = {name: (numpy.arange(-2, 4) % 2 == 0 if dtype is numpy.bool_
                     else numpy.arange(-2, 4).astype(dtype)) for name, dtype in _DTYPES}
    state = {name: w.Tensor(w.Storage(a, name, str(i)), 0, (2, 3), (3, 1))
             for i, (name, a) in enumerate(arrays.items())}
    bf16 = numpy.array([1.0, -2.5, 3.140625, 0.0], numpy.float32)
    state['BFloat16Storage'] = w.Tensor(
        w.Storage((bf16.view(numpy.uint32) >> 16).astype(numpy.uint16), 'BFloat16Storage', 'b'),
        0, (4,), (1,))
    path = tmp_path / 'd.pth'
    getattr(w, 'write_' + fmt)(path, state)
    loaded = load_torch(path)
    for name, a in arrays.items():
        assert loaded[name].dtype == a.dtype, name
        numpy.testing.assert_array_equal(loaded[name], a.reshape(2, 3))
    assert loaded['BFloat16Storage'].dtype == numpy.float32
    numpy.testing.assert_array_equal(loaded['BFloat16Storage'], bf16)


def test_tensor_reading_past_its_storage_is_refused(tmp_path, torch_writer):
    w = torch_writer
    storage = w.Storage(numpy.zeros(6, numpy.float32), 'FloatStorage', '0')
    w.write_zip(tmp_path / 'bad.pth', {'x': w.Tensor(storage, 2, (2, 3), (3, 1))})
    with pytest.raises(pickle.UnpicklingError, match=r'reads past the end of its storage of 6'):
        load_torch(tmp_path / 'bad.pth')


def test_not_a_checkpoint(tmp_path):
    (tmp_path / 'x.pth').write_bytes(b'hello')
    with pytest.raises(ValueError, match='is not a PyTorch checkpoint'):
        load_torch(tmp_path / 'x.pth')

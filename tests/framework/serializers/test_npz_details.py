"""NPZ details: messages matched whole, keys that begin with 'X', object scalars, exact casts,
the archive's globals and refusals, and the mode of a newly written file."""

import io
import os
import pickle
import re
import zipfile

import numpy
import numpy.lib.format as npy_format
import pytest

from framework.serializers import (
    DeclaredSizeError,
    DictionarySerializer,
    NpzDeserializer,
    NpzMismatchError,
    UnsafePickleError,
    load_npz,
    save_npz,
)
from framework.serializers._npz_archive import NpzArchive, _array_globals, _CheckedArray
from framework.serializers.serializer import Deserializer


class _Values:
    """An object with the values given, by key (None for a child: ``{'child': {...}}``)."""

    def __init__(self, **values):
        self.values = values

    def serialize(self, serializer):
        for key, value in self.values.items():
            if isinstance(value, _Values):
                value.serialize(serializer[key])
            else:
                self.values[key] = serializer(key, value)


def _exactly(message):
    return '^' + re.escape(message) + '$'


def test_keys_beginning_with_x():
    target = {}
    _Values(Xw=numpy.zeros(1), XX=_Values(Xb=1)).serialize(DictionarySerializer(target))
    assert sorted(target) == ['XX/Xb', 'Xw']
    obj = _Values(Xw=numpy.ones(1), XX=_Values(Xb=2))
    NpzDeserializer(target).load(obj)
    assert obj.values['Xw'][0] == 0 and obj.values['XX'].values['Xb'] == 1


def test_object_arrays_other_than_none_are_returned():
    text = numpy.array('text', dtype=object)
    row = numpy.array([None, 1], dtype=object)
    d = NpzDeserializer({'t': text, 'r': row, 'n': numpy.asarray(None)})
    assert d('t', None) is not None and d('t', None)[()] == 'text'
    assert d('r', None) is not None and list(d('r', None)) == [None, 1]
    assert d('n', numpy.zeros(1)) is None


def test_unsigned_integers_load_into_python_ints():
    obj = _Values(n=3)
    NpzDeserializer({'n': numpy.uint64(2 ** 63 + 1)}).load(obj)
    assert obj.values['n'] == 2 ** 63 + 1 and type(obj.values['n']) is int


def test_values_are_cast_once_to_the_arrays_dtype():
    # Through float64, 2**60 + 2**36 + 1 rounds twice (to 2**60 + 2**36, then a tie, to 2**60).
    value = numpy.zeros(1, numpy.float32)
    NpzDeserializer({'a': numpy.array([2 ** 60 + 2 ** 36 + 1], numpy.int64)})('a', value)
    assert value[0] == numpy.float32(2 ** 60 + 2 ** 37)


def test_direct_call_messages():
    d = NpzDeserializer({'a': numpy.zeros(2)})
    with pytest.raises(NpzMismatchError, match=_exactly(
            'NpzDeserializer: the file does not match the object:\n'
            '  keys missing from the file (1): b\n'
            'Pass strict=False to leave missing values as they are, or ignore_names to skip '
            'some keys.')):
        d('b', numpy.zeros(2))
    with pytest.raises(NpzMismatchError, match=_exactly(
            'NpzDeserializer: the file does not match the object:\n'
            '  shape mismatches (1): a: (2,) in the file, a scalar in the object')):
        d('a', 1.0)
    with pytest.raises(ValueError, match=_exactly(
            'NpzDeserializer: ignore_names must be a string, a callable or a list of them, but '
            'got an item of type int')):
        NpzDeserializer({}, ignore_names=[3])('a', 1)


def test_load_message_lists_every_problem_under_the_path():
    npz = {'p/a': numpy.zeros(2), 'p/b': numpy.zeros(3), 'p/u2': numpy.zeros(1),
           'p/u1': numpy.zeros(1), 'p/skip': numpy.zeros(1), 'q/x': numpy.zeros(1)}
    obj = _Values(a=numpy.zeros(3), b=numpy.zeros(3, numpy.int32), c=numpy.zeros(1))
    with pytest.raises(NpzMismatchError) as info:
        NpzDeserializer(npz, path='p/', ignore_names='p/skip').load(obj)
    assert str(info.value) == (
        "load_npz: the file does not match the object under the path 'p/':\n"
        '  keys missing from the file (1): p/c\n'
        '  shape mismatches (1): p/a: (2,) in the file, (3,) in the object\n'
        '  type mismatches (1): p/b: float64 in the file cannot be cast to int32\n'
        '  keys of the file that nothing read (2): p/u1, p/u2\n'
        'Pass strict=False to leave missing values as they are, or ignore_names to skip some '
        'keys.')
    assert info.value.summary() == (
        '1 keys missing from the file (e.g. p/c), 1 shape mismatches (e.g. p/a: (2,) in the '
        'file, (3,) in the object), 1 type mismatches (e.g. p/b: float64 in the file cannot be '
        'cast to int32), 2 keys of the file that nothing read (e.g. p/u1, p/u2)')
    many = NpzMismatchError('text', unread=['d', 'c', 'b', 'a'])
    assert many.summary() == '4 keys of the file that nothing read (e.g. a, b, c)'


def test_load_message_when_loading_stopped():
    obj = _Values(a=numpy.zeros(3), lazy=None)
    with pytest.raises(NpzMismatchError) as info:
        NpzDeserializer({'a': numpy.zeros(2)}).load(obj)
    assert str(info.value) == (
        'load_npz: the file does not match the object:\n'
        '  keys missing from the file (1): lazy\n'
        '  shape mismatches (1): a: (2,) in the file, (3,) in the object\n'
        "  loading stopped at 'lazy', a value that the object does not have yet, so more keys "
        'may be missing\n'
        'Pass strict=False to leave missing values as they are, or ignore_names to skip some '
        'keys.')


def test_mismatch_error_without_details():
    assert str(NpzMismatchError('text')) == 'text'
    assert NpzMismatchError('text').summary() == 'text'
    error = NpzMismatchError('text')
    error.args = ()
    assert str(error) == ''


def test_deserializer_load_passes_itself():
    seen = []

    class Obj:
        def serialize(self, serializer):
            seen.append(serializer)

    d = Deserializer()
    d.load(Obj())
    assert seen == [d]


def test_array_globals():
    allowed = _array_globals()
    assert allowed[('numpy', 'ndarray')] is numpy.ndarray
    assert allowed[('numpy', 'dtype')] is numpy.dtype
    for module in ('numpy.core.multiarray', 'numpy._core.multiarray'):
        rebuilt = allowed[module, '_reconstruct'](numpy.ndarray, (0,), b'b')
        assert type(rebuilt) is _CheckedArray and rebuilt.shape == (0,)
        assert rebuilt.dtype == numpy.int8

    class Sub(numpy.ndarray):
        pass

    rebuilt = allowed['numpy._core.multiarray', '_reconstruct'](Sub, (2,), b'b')
    assert type(rebuilt) is Sub and rebuilt.shape == (2,)
    assert len(allowed) == 5


def _npz(members):
    f = io.BytesIO()
    with zipfile.ZipFile(f, 'w') as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    f.seek(0)
    return f


def _npy(array, version=(1, 0), allow_pickle=False):
    f = io.BytesIO()
    npy_format.write_array(f, array, version=version, allow_pickle=allow_pickle)
    return f.getvalue()


def test_archive_refusals_name_the_file_object():
    f = _npz({'a.npy': _npy(numpy.zeros(2)), 'v3.npy': b'\x93NUMPY\x03\x00' + b'\0' * 8,
              'o.npy': _npy(numpy.array([1, 'x'], dtype=object), allow_pickle=True)})
    with NpzArchive(f) as npz:
        assert list(npz) == ['a', 'v3', 'o']
        numpy.testing.assert_array_equal(npz['a'], [0, 0])
        with pytest.raises(ValueError, match=_exactly(
                "npz the file object: the entry 'v3' has the npy format version (3, 0), but "
                'only [(1, 0), (2, 0)] are read')):
            npz['v3']
        with pytest.raises(KeyError, match=re.escape(
                "'b' is not in the npz file the file object")):
            npz['b']
        assert list(npz['o']) == [1, 'x']


def test_archive_entry_that_is_not_an_array(tmp_path):
    header = {'descr': '|O', 'fortran_order': False, 'shape': (1,)}
    f = io.BytesIO()
    npy_format.write_array_header_1_0(f, header)
    path = tmp_path / 'n.npz'
    path.write_bytes(_npz({'x.npy': f.getvalue() + pickle.dumps([1], protocol=2)}).getvalue())
    with NpzArchive(path) as npz, pytest.raises(ValueError, match=_exactly(
            f"npz {path}: the entry 'x' does not hold an array")):
        npz['x']


def test_archive_refuses_pickled_globals_and_names_what_is_allowed(tmp_path):
    header = {'descr': '|O', 'fortran_order': False, 'shape': (1,)}
    f = io.BytesIO()
    npy_format.write_array_header_1_0(f, header)
    evil = b'cos\nsystem\n(Vtrue\ntR.'
    path = tmp_path / 'e.npz'
    path.write_bytes(_npz({'x.npy': f.getvalue() + evil}).getvalue())
    with NpzArchive(path) as npz, pytest.raises(UnsafePickleError, match=_exactly(
            f"npz {path}, entry 'x': refusing to load the global os.system (only globals of "
            '_codecs, numpy, numpy._core.multiarray, numpy.core.multiarray are allowed here). '
            'The file may be malicious; nothing of it was run')):
        npz['x']


def test_legacy_header_refuses_any_global(tmp_path):
    from framework.serializers import load_torch
    path = tmp_path / 'h.pth'
    path.write_bytes(b'\x80\x02cos\nsystem\n.')
    with pytest.raises(UnsafePickleError, match=_exactly(
            f'load_torch: {path}: refusing to load the global os.system (no global is allowed '
            'here). The file may be malicious; nothing of it was run')):
        load_torch(path)


def test_new_file_mode_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        save_npz(tmp_path / 'm.npz', _Values(a=numpy.zeros(1)))
    finally:
        os.umask(old)
    assert os.stat(tmp_path / 'm.npz').st_mode & 0o777 == 0o644
    obj = _Values(a=numpy.ones(1))
    load_npz(tmp_path / 'm.npz', obj)
    assert obj.values['a'][0] == 0


def test_archive_names_an_open_file_and_keys_without_npy(tmp_path):
    path = tmp_path / 'f.npz'
    path.write_bytes(_npz({'plain': _npy(numpy.arange(3)), 'a.npy': _npy(numpy.zeros(1))})
                     .getvalue())
    with open(path, 'rb') as f, NpzArchive(f) as npz:
        assert list(npz) == ['plain', 'a']
        numpy.testing.assert_array_equal(npz['plain'], [0, 1, 2])
        with pytest.raises(KeyError, match=re.escape(f"'b' is not in the npz file {path}")):
            npz['b']


def test_archive_entry_declaring_more_than_its_member(tmp_path):
    header = {'descr': '<f8', 'fortran_order': False, 'shape': (10,)}
    f = io.BytesIO()
    npy_format.write_array_header_1_0(f, header)
    path = tmp_path / 's.npz'
    path.write_bytes(_npz({'x.npy': f.getvalue() + bytes(8)}).getvalue())
    with NpzArchive(path) as npz, pytest.raises(DeclaredSizeError, match=_exactly(
            f"npz {path}: entry 'x' declares an array of shape (10,) and dtype float64 (80 "
            'bytes), but its member holds 8 bytes')):
        npz['x']

"""Files that declare more data than they hold are refused before anything that size is
allocated, with an error naming the file, the part and both sizes."""

import io
import pickle
import struct
import tracemalloc
import zipfile

import numpy
import numpy.lib.format as npy_format
import pytest

from framework import Link, Parameter
from framework.serializers import DeclaredSizeError, load_npz, load_torch

# What a refusal may allocate at most: far below any of the sizes declared here.
_BUDGET = 16 << 20
# Zeros that deflate to about 100 KB: more than the readers let so small a file expand to.
_BOMB_BYTES = 96 << 20


@pytest.fixture
def refused():
    """``refused(load, *args, match=...)``: asserts that ``load(*args)`` raises
    DeclaredSizeError matching ``match`` while allocating less than ``_BUDGET``."""
    def check(load, *args, match):
        tracemalloc.start()
        try:
            with pytest.raises(DeclaredSizeError, match=match):
                load(*args)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < _BUDGET, f'the refusal allocated {peak} bytes'
    return check


def _write_bomb(archive: zipfile.ZipFile, name: str, header: bytes = b'') -> None:
    with archive.open(name, 'w', force_zip64=True) as member:
        member.write(header)
        zeros = bytes(1 << 20)
        for _ in range(_BOMB_BYTES >> 20):
            member.write(zeros)


def test_zip_bomb_checkpoint(tmp_path, torch_writer, refused):
    w = torch_writer
    numel = _BOMB_BYTES // 4
    storage = w.Storage(numpy.zeros(0, numpy.float32), 'FloatStorage', '0', numel=numel)
    path = tmp_path / 'bomb.pth'
    w.write_zip(path, {'w': w.Tensor(storage, 0, (numel,), (1,))})
    with zipfile.ZipFile(path, 'a', zipfile.ZIP_DEFLATED) as archive:
        _write_bomb(archive, 'archive/data/0')
    assert path.stat().st_size < 1 << 20
    refused(load_torch, path, match=r'bomb.pth: its members expand to 1006\d{5} '
                                    rf'bytes, but a file of {path.stat().st_size} bytes may '
                                    r'expand to at most 67108864')


class _Holder(Link):
    def __init__(self, shape):
        super().__init__()
        with self.init_scope():
            self.W = Parameter(numpy.zeros(shape, numpy.float32))


def test_zip_bomb_npz(tmp_path, refused):
    path = tmp_path / 'bomb.npz'
    header = io.BytesIO()
    npy_format.write_array_header_1_0(
        header, {'descr': '<f4', 'fortran_order': False, 'shape': (_BOMB_BYTES // 4,)})
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED) as archive:
        _write_bomb(archive, 'W.npy', header.getvalue())
    refused(load_npz, path, _Holder(_BOMB_BYTES // 4),
            match=rf'bomb.npz: its members expand to {_BOMB_BYTES + 128} bytes')


def test_storage_larger_than_its_zip_record(tmp_path, torch_writer, refused):
    w = torch_writer
    storage = w.Storage(numpy.zeros(4, numpy.float32), 'FloatStorage', '0', numel=10 ** 10)
    w.write_zip(tmp_path / 'big.pth', {'w': w.Tensor(storage, 0, (4,), (1,))})
    refused(load_torch, tmp_path / 'big.pth',
            match=r'big.pth: storage 0 \(archive/data/0\) declares 10000000000 elements of '
                  r'torch.FloatStorage \(40000000000 bytes\), but its record holds 16 bytes')


def test_storage_larger_than_the_legacy_file(tmp_path, torch_writer, refused):
    w = torch_writer
    storage = w.Storage(numpy.zeros(1, numpy.float32), 'FloatStorage', '0', numel=10 ** 10)
    path = tmp_path / 'big.pth'
    w.write_legacy(path, {'w': w.Tensor(storage, 0, (1,), (1,))})
    assert path.stat().st_size < 300
    refused(load_torch, path,
            match=r'big.pth: storage 0 declares 10000000000 elements of torch.FloatStorage '
                  r'\(40000000000 bytes\), but only \d+ bytes of the file remain')


def _npz_with(path, name: str, header: dict, data: bytes) -> None:
    member = io.BytesIO()
    npy_format.write_array_header_1_0(member, header)
    with zipfile.ZipFile(path, 'w') as archive:
        archive.writestr(name, member.getvalue() + data)


def test_npy_header_larger_than_its_member(tmp_path, refused):
    path = tmp_path / 'huge.npz'
    shape = (2 ** 20, 2 ** 20, 9)
    _npz_with(path, 'W.npy', {'descr': '<f4', 'fortran_order': False, 'shape': shape}, b'1234')
    refused(load_npz, path, _Holder((1,)),
            match=r"huge.npz: entry 'W' declares an array of shape \(1048576, 1048576, 9\) "
                  r'and dtype float32 \(39582418599936 bytes\), but its member holds 4 bytes')


def test_object_array_larger_than_its_pickle(tmp_path, refused):
    path = tmp_path / 'huge.npz'
    # Chainer's None, an object array, with a pickle that declares 10**12 elements.
    state = (1, (10 ** 12,), numpy.dtype(object), False, [None])
    stream = (b'\x80\x02cnumpy.core.multiarray\n_reconstruct\ncnumpy\nndarray\nK\x00\x85C\x01b'
              b'\x87R' + pickle.dumps(state, protocol=2)[2:-1] + b'b.')
    _npz_with(path, 'W.npy', {'descr': '|O', 'fortran_order': False, 'shape': ()}, stream)
    refused(load_npz, path, _Holder((1,)),
            match=r"huge.npz, entry 'W': an object array declares 1000000000000 elements, "
                  r'but its pickle holds 1 of them')


_PICKLES = {
    # 2**40 bytes that are not there.
    'bytes': b'\x80\x04\x8e' + struct.pack('<Q', 2 ** 40) + b'abc.',
    # A memo of 2**32 entries.
    'memo': b'\x80\x02Nr' + struct.pack('<I', 2 ** 32 - 1) + b'.',
    # A frame of 2**40 bytes.
    'frame': b'\x80\x04\x95' + struct.pack('<Q', 2 ** 40) + b'N.',
}


@pytest.mark.parametrize('kind', sorted(_PICKLES))
@pytest.mark.parametrize('fmt', ['zip', 'legacy'])
def test_pickle_declaring_more_than_it_holds(tmp_path, torch_writer, refused, kind, fmt):
    path = tmp_path / 'crafted.pth'
    if fmt == 'zip':
        torch_writer.write_zip(path, {}, data_pkl=_PICKLES[kind])
    else:
        path.write_bytes(_PICKLES[kind])
    refused(load_torch, path, match=r'crafted.pth.*: the pickle (declares|names|holds)')

"""The declared-size checks at their bounds, with their messages matched whole: pickles that
start inside the file (a legacy checkpoint's second header), and archives that expand to
exactly their budget."""

import os
import pickle
import re
import struct
import zipfile

import pytest

from framework.serializers import DeclaredSizeError, load_torch
from framework.serializers._npz_archive import NpzArchive

_MAGIC = pickle.dumps(0x1950a86a20f9469cfc6c, protocol=2)


def _second_header(tmp_path, stream):
    path = tmp_path / 'h.pth'
    path.write_bytes(_MAGIC + stream)
    return path


def _refused(path, message):
    with pytest.raises(DeclaredSizeError, match='^' + re.escape(message) + '$'):
        load_torch(path)


def test_frame_larger_than_the_rest_of_the_file(tmp_path):
    # 20 bytes: more than the 2 left, less than the offset of the frame's end.
    path = _second_header(tmp_path, b'\x80\x04\x95' + struct.pack('<Q', 20) + b'N.')
    _refused(path, f'load_torch: {path}: the pickle declares a frame of 20 bytes at offset '
                   f'{len(_MAGIC) + 11}, but only 2 bytes remain')


def test_memo_index_as_large_as_the_stream(tmp_path):
    # Six bytes hold at most a memo index of 5.
    path = _second_header(tmp_path, b'\x80\x02Nq\x06.')
    _refused(path, f'load_torch: {path}: the pickle names the memo entry 6, but holds only 6 '
                   'bytes')
    path = _second_header(tmp_path, b'\x80\x02Nq\x05.')
    with pytest.raises(ValueError, match='wrong magic number or protocol version'):
        load_torch(path)


def test_bytes_past_the_end_of_the_file(tmp_path):
    path = _second_header(tmp_path, b'\x80\x02X' + struct.pack('<I', 100) + b'abc.')
    _refused(path, f'load_torch: {path}: the pickle declares 100 bytes at offset '
                   f'{len(_MAGIC) + 7}, but only 4 bytes remain')


def _zeros(archive, name, n):
    with archive.open(name, 'w', force_zip64=True) as member:
        block = bytes(1 << 20)
        while n:
            member.write(block[:min(n, len(block))])
            n -= min(n, len(block))


def test_archive_expanding_to_exactly_its_budget(tmp_path):
    path = tmp_path / 'a.npz'
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        _zeros(archive, 'z.npy', 64 << 20)
    NpzArchive(path).close()
    with zipfile.ZipFile(path, 'a', zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr('one.npy', b'\0')
    size = path.stat().st_size
    with pytest.raises(DeclaredSizeError, match='^' + re.escape(
            f'npz {path}: its members expand to {(64 << 20) + 1} bytes, but a file of {size} '
            f'bytes may expand to at most {64 << 20} (100 times its size, or 64 MiB): the '
            'file is corrupt or a zip bomb') + '$'):
        NpzArchive(path)


def test_large_archive_may_expand_a_hundredfold(tmp_path):
    # A file of over 1 MiB may expand to over 100 MiB: 80 MiB of zeros pass.
    path = tmp_path / 'b.npz'
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr(zipfile.ZipInfo('r.npy'), os.urandom(1 << 20))
        _zeros(archive, 'z.npy', 80 << 20)
    assert path.stat().st_size > 1 << 20
    with NpzArchive(path) as npz:
        assert sorted(npz) == ['r', 'z']

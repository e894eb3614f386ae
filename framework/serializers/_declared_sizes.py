"""Checking the sizes a file declares against the data it holds, before allocating them.

A few bytes can declare gigabytes: a zip member that inflates a thousandfold, a storage of
``10**10`` elements, an npy header's shape, a pickle's length of bytes, frame or memo index.
The readers compare each declared size with what the file can back and raise
:class:`DeclaredSizeError` before allocating anything that size.
"""

from __future__ import annotations

import io
import pickletools
import zipfile

#: How many times its size on disk a zip archive may expand to, above
#: :data:`MIN_EXPANSION_BYTES`. ``torch.save`` stores its records uncompressed and weights
#: deflate by a few percent; only archives made mostly of repeated bytes come near.
MAX_EXPANSION_RATIO = 100
#: What any zip archive may expand to, however small.
MIN_EXPANSION_BYTES = 64 << 20

_MEMO_OPCODES = ('PUT', 'BINPUT', 'LONG_BINPUT')


class DeclaredSizeError(ValueError):
    """A file declares more data than it holds, or than it may expand to; nothing that size
    has been allocated. The file is corrupt or crafted."""


def remaining_bytes(f) -> int:
    """The number of bytes of the seekable file ``f`` from its position to its end."""
    position = f.tell()
    end = f.seek(0, io.SEEK_END)
    f.seek(position)
    return end - position


def check_zip_expansion(archive: zipfile.ZipFile, where: str) -> None:
    """Refuses an archive whose members declare more bytes than it may expand to.

    Reading a member stops at its declared size, so this bounds what reading all of them
    allocates.

    Args:
        archive: an archive open for reading.
        where: the reader and the file, for the message (``"load_torch: a.pth"``).

    Raises:
        DeclaredSizeError: the members declare more than ``MAX_EXPANSION_RATIO`` times the
            size of the file, and more than ``MIN_EXPANSION_BYTES``.
    """
    f = archive.fp
    position = f.tell()
    size = f.seek(0, io.SEEK_END)
    f.seek(position)
    declared = sum(info.file_size for info in archive.infolist())
    budget = max(MIN_EXPANSION_BYTES, MAX_EXPANSION_RATIO * size)
    if declared > budget:
        raise DeclaredSizeError(
            f'{where}: its members expand to {declared} bytes, but a file of {size} bytes may '
            f'expand to at most {budget} ({MAX_EXPANSION_RATIO} times its size, or '
            f'{MIN_EXPANSION_BYTES >> 20} MiB): the file is corrupt or a zip bomb')


class _BoundedReader:
    """Reads a file for :func:`pickletools.genops`, refusing reads past its end."""

    def __init__(self, f, end: int, where: str):
        self._f, self._end, self._where = f, end, where

    def tell(self) -> int:
        return self._f.tell()

    def read(self, n: int) -> bytes:
        remaining = self._end - self._f.tell()
        if n > remaining:
            raise DeclaredSizeError(f'{self._where}: the pickle declares {n} bytes at offset '
                                    f'{self._f.tell()}, but only {remaining} bytes remain')
        return self._f.read(n)

    def readline(self) -> bytes:
        return self._f.readline()


def check_pickle(f, where: str) -> None:
    """Refuses a pickle stream whose opcodes declare more than the file holds.

    The unpickler allocates what an opcode declares before reading it: the bytes of
    ``BINBYTES8``, a ``FRAME``, a memo of as many entries as a ``LONG_BINPUT`` index. The
    stream is walked from the position of ``f`` (which is restored), without building
    anything; a stream malformed otherwise is left to the unpickler to report.

    Args:
        f: a seekable binary file at the start of the stream.
        where: the reader and the file, for the message.

    Raises:
        DeclaredSizeError: an opcode declares more bytes, or a larger memo, than the rest of
            the file holds.
    """
    start = f.tell()
    end = start + remaining_bytes(f)
    try:
        for opcode, arg, _ in pickletools.genops(_BoundedReader(f, end, where)):
            if opcode.name == 'FRAME' and arg > end - f.tell():
                raise DeclaredSizeError(f'{where}: the pickle declares a frame of {arg} bytes '
                                        f'at offset {f.tell()}, but only {end - f.tell()} '
                                        'bytes remain')
            if opcode.name in _MEMO_OPCODES and arg >= end - start:
                raise DeclaredSizeError(f'{where}: the pickle names the memo entry {arg}, but '
                                        f'holds only {end - start} bytes')
    except DeclaredSizeError:
        raise
    except ValueError:
        pass  # malformed otherwise: the unpickler says how
    finally:
        f.seek(start)

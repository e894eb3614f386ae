"""Reading ``.npz`` archives without trusting them.

:func:`numpy.load` reads object arrays (Chainer saves ``None`` as one) only with
``allow_pickle=True``, which lets the file run arbitrary code. :class:`NpzArchive` reads them
with an unpickler that allows NumPy's array-rebuilding globals and nothing else.

Every size the file declares is checked before anything that size is allocated: the members'
sizes against the archive's (a zip bomb), each npy header's shape against its member, an object
array's elements against its pickle (see :mod:`~framework.serializers._declared_sizes`).
"""

from __future__ import annotations

import math
import os
import zipfile
from collections.abc import Iterator, Mapping

import numpy
import numpy.lib.format as npy_format

from framework.serializers._declared_sizes import DeclaredSizeError, check_zip_expansion
from framework.serializers._safe_pickle import BYTES_GLOBALS, RestrictedUnpickler

_HEADER_READERS = {
    (1, 0): npy_format.read_array_header_1_0,
    (2, 0): npy_format.read_array_header_2_0,
}


class _TooFewObjects(DeclaredSizeError):
    """An object array's pickle declares more elements than it holds."""


class _CheckedArray(numpy.ndarray):
    """An array being unpickled: NumPy allocates an object array of the shape its state
    declares before reading the elements, so the elements are counted first."""

    def __setstate__(self, state):
        shape, dtype, data = state[-4], state[-3], state[-1]
        if (isinstance(dtype, numpy.dtype) and dtype.hasobject and isinstance(data, list)
                and isinstance(shape, tuple) and all(isinstance(n, int) for n in shape)
                and math.prod(shape) > len(data)):
            raise _TooFewObjects(f'an object array declares {math.prod(shape)} elements, '
                                 f'but its pickle holds {len(data)} of them')
        super().__setstate__(state)


def _array_globals() -> dict[tuple[str, str], object]:
    reconstruct = numpy.asarray(None).__reduce__()[0]

    def checked_reconstruct(subtype, shape, dtype):
        return reconstruct(_CheckedArray if subtype is numpy.ndarray else subtype, shape, dtype)

    allowed = {('numpy', 'ndarray'): numpy.ndarray, ('numpy', 'dtype'): numpy.dtype,
               **BYTES_GLOBALS}
    # NumPy 1 wrote numpy.core, NumPy 2 writes numpy._core; both name the same function.
    for module in ('numpy.core.multiarray', 'numpy._core.multiarray'):
        allowed[module, '_reconstruct'] = checked_reconstruct
    return allowed


_ARRAY_GLOBALS = _array_globals()


class NpzArchive(Mapping):
    """The arrays of an ``.npz`` file, read on access (a mapping from key to array).

    Args:
        file: a path or a seekable binary file object.
    """

    def __init__(self, file):
        self._name = (os.fspath(file) if isinstance(file, (str, os.PathLike))
                      else getattr(file, 'name', 'the file object'))
        self._zip = zipfile.ZipFile(file)
        try:
            check_zip_expansion(self._zip, f'npz {self._name}')
        except DeclaredSizeError:
            self._zip.close()
            raise
        self._members = {}
        for member in self._zip.namelist():
            key = member[:-len('.npy')] if member.endswith('.npy') else member
            self._members[key] = member

    def __getitem__(self, key: str) -> numpy.ndarray:
        """The array of ``key``.

        Raises:
            KeyError: the file has no ``key``.
            DeclaredSizeError: the entry declares more data than its member holds.
            UnsafePickleError: the entry is an object array whose pickle names a global
                other than NumPy's array-rebuilding ones.
        """
        member = self._member(key)
        size = self._zip.getinfo(member).file_size
        with self._zip.open(member) as fp:
            version = npy_format.read_magic(fp)
            if version not in _HEADER_READERS:
                raise ValueError(f'npz {self._name}: the entry {key!r} has the npy format '
                                 f'version {version}, but only {sorted(_HEADER_READERS)} are '
                                 'read')
            shape, _, dtype = _HEADER_READERS[version](fp)
            if not dtype.hasobject:
                nbytes = math.prod(shape) * dtype.itemsize
                if nbytes > size - fp.tell():
                    raise DeclaredSizeError(
                        f'npz {self._name}: entry {key!r} declares an array of shape {shape} '
                        f'and dtype {dtype} ({nbytes} bytes), but its member holds '
                        f'{size - fp.tell()} bytes')
                fp.seek(0)
                return npy_format.read_array(fp, allow_pickle=False)
            where = f'npz {self._name}, entry {key!r}'
            try:
                array = RestrictedUnpickler(fp, _ARRAY_GLOBALS, where).load()
            except _TooFewObjects as error:
                raise DeclaredSizeError(f'{where}: {error}') from None
        if not isinstance(array, numpy.ndarray):
            raise ValueError(f'npz {self._name}: the entry {key!r} does not hold an array')
        return array.view(numpy.ndarray)

    def _member(self, key: str) -> str:
        try:
            return self._members[key]
        except KeyError:
            raise KeyError(f'{key!r} is not in the npz file {self._name}') from None

    def __contains__(self, key) -> bool:
        return key in self._members

    def __iter__(self) -> Iterator[str]:
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)

    def close(self) -> None:
        self._zip.close()

    def __enter__(self) -> NpzArchive:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

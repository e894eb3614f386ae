"""Reading ``.npz`` archives without trusting them.

:func:`numpy.load` reads object arrays (Chainer saves ``None`` as one) only with
``allow_pickle=True``, which lets the file run arbitrary code. :class:`NpzArchive` reads them
with an unpickler that allows NumPy's array-rebuilding globals and nothing else.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterator, Mapping

import numpy
import numpy.lib.format as npy_format

from framework.serializers._safe_pickle import BYTES_GLOBALS, RestrictedUnpickler

_HEADER_READERS = {
    (1, 0): npy_format.read_array_header_1_0,
    (2, 0): npy_format.read_array_header_2_0,
}


def _array_globals() -> dict[tuple[str, str], object]:
    reconstruct = numpy.asarray(None).__reduce__()[0]
    allowed = {('numpy', 'ndarray'): numpy.ndarray, ('numpy', 'dtype'): numpy.dtype,
               **BYTES_GLOBALS}
    # NumPy 1 wrote numpy.core, NumPy 2 writes numpy._core; both name the same function.
    for module in ('numpy.core.multiarray', 'numpy._core.multiarray'):
        allowed[module, '_reconstruct'] = reconstruct
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
        self._members = {}
        for member in self._zip.namelist():
            key = member[:-len('.npy')] if member.endswith('.npy') else member
            self._members[key] = member

    def __getitem__(self, key: str) -> numpy.ndarray:
        member = self._member(key)
        with self._zip.open(member) as fp:
            version = npy_format.read_magic(fp)
            header = _HEADER_READERS.get(version)
            if header is None or not header(fp)[2].hasobject:
                fp.seek(0)
                return npy_format.read_array(fp, allow_pickle=False)
            array = RestrictedUnpickler(fp, _ARRAY_GLOBALS,
                                        f'npz {self._name}, entry {key!r}').load()
        if not isinstance(array, numpy.ndarray):
            raise ValueError(f'npz {self._name}: the entry {key!r} does not hold an array')
        return array

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

"""A reader of MATLAB level 5 MAT-files (``save -v6`` and ``-v7``), without SciPy.

It reads what annotation files hold: numeric and logical arrays (of any storage type, with the
class MATLAB gives them), character arrays, cell arrays, structs and sparse matrices, each
variable compressed or not, in either byte order. Structs of one element become :class:`dict`;
other structs and cell arrays become object arrays; sparse matrices become dense arrays.
Version 7.3 files are HDF5 files and are not read; nor are MATLAB objects or function handles.
"""

from __future__ import annotations

import os
import zlib

import numpy

_HEADER = 128
# Data types of the elements (miINT8 ... miUTF32).
_MI_DTYPES = {1: 'i1', 2: 'u1', 3: 'i2', 4: 'u2', 5: 'i4', 6: 'u4', 7: 'f4', 9: 'f8',
              12: 'i8', 13: 'u8', 16: 'u1', 17: 'u2', 18: 'u4'}
_MI_MATRIX = 14
_MI_COMPRESSED = 15
# Array classes (mxCELL_CLASS ... mxUINT64_CLASS).
_CELL, _STRUCT, _CHAR, _SPARSE = 1, 2, 4, 5
_NUMERIC = {6: 'f8', 7: 'f4', 8: 'i1', 9: 'u1', 10: 'i2', 11: 'u2', 12: 'i4', 13: 'u4',
            14: 'i8', 15: 'u8'}
_COMPLEX_FLAG = 0x800
_LOGICAL_FLAG = 0x200


class MatFileError(ValueError):
    """A file is not a MAT-file this reader understands, or it is corrupt."""


def loadmat(path: str | os.PathLike) -> dict[str, object]:
    """Reads the variables of a level 5 MAT-file.

    Args:
        path (str): The file.

    Returns:
        dict: The variables by name. Numeric and logical arrays keep MATLAB's shape (at least
        two dimensions, column-major data laid out as NumPy expects) and class (``uint8``,
        ``double``...; ``bool`` for logical); a char array is a :class:`str` (rows joined by
        newlines); a struct with one element is a :class:`dict` of its fields, others are
        object arrays of such dicts; a cell array is an object array; a sparse matrix is a
        dense array.

    Raises:
        MatFileError: The file is not a level 5 MAT-file, is a version 7.3 (HDF5) file, holds
            a type this reader does not read, or is truncated; the message names the file.

    """
    path = os.fspath(path)
    with open(path, 'rb') as f:
        data = f.read()
    try:
        return _Reader(path, data).variables()
    except MatFileError:
        raise
    except (IndexError, ValueError, zlib.error) as error:
        raise MatFileError(f'loadmat: {path} is corrupt or truncated ({error})') from None


class _Reader:
    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        if len(data) < _HEADER:
            raise MatFileError(f'loadmat: {path} is too short to be a MAT-file '
                               f'({len(data)} bytes)')
        text = data[:116].decode('latin-1')
        if text.startswith('MATLAB 7.3') or data[512:520] == b'\x89HDF\r\n\x1a\n':
            raise MatFileError(f'loadmat: {path} is a MATLAB 7.3 (HDF5) file; save it with '
                               f"save('-v7') or read it with h5py")
        indicator = data[126:128]
        if indicator == b'IM':
            self.order = '<'
        elif indicator == b'MI':
            self.order = '>'
        else:
            raise MatFileError(f'loadmat: {path} is not a level 5 MAT-file (its header ends '
                               f'with {indicator!r}, not the endian indicator IM or MI)')
        self.data = data

    def variables(self) -> dict[str, object]:
        result = {}
        offset = _HEADER
        while offset + 8 <= len(self.data):
            mi_type, size, start = self._tag(self.data, offset)
            body = self.data[start:start + size]
            if len(body) < size:
                raise MatFileError(f'loadmat: {self.path} is truncated: a variable at byte '
                                   f'{offset} needs {size} bytes, {len(body)} are left')
            offset = start + size
            if mi_type == _MI_COMPRESSED:
                body = zlib.decompress(body)
                mi_type, size, start = self._tag(body, 0)
                body = body[start:start + size]
            if mi_type != _MI_MATRIX:
                raise MatFileError(f'loadmat: {self.path} holds a top-level element of type '
                                   f'{mi_type}, not a matrix')
            name, value = self._matrix(body)
            result[name] = value
        return result

    def _tag(self, buffer: bytes, offset: int) -> tuple[int, int, int]:
        """Reads a tag: ``(type, number of bytes, offset of the data)``; a small element
        packs type and size in four bytes and its data in the next four."""
        first, second = numpy.frombuffer(buffer, self.order + 'u4', 2, offset)
        if first >> 16:
            return int(first & 0xFFFF), int(first >> 16), offset + 4
        return int(first), int(second), offset + 8

    def _element(self, buffer: bytes, offset: int) -> tuple[int, bytes, int]:
        """Reads one element inside a matrix: ``(type, data, offset of the next element)``;
        elements are padded to eight bytes."""
        mi_type, size, start = self._tag(buffer, offset)
        data = buffer[start:start + size]
        if len(data) < size:
            raise MatFileError(f'loadmat: {self.path} is truncated inside a variable')
        if start - offset == 4:
            return mi_type, data, offset + 8
        return mi_type, data, start + size + (-size) % 8

    def _numbers(self, mi_type: int, data: bytes) -> numpy.ndarray:
        if mi_type not in _MI_DTYPES:
            raise MatFileError(f'loadmat: {self.path} holds data of unknown type {mi_type}')
        return numpy.frombuffer(data, self.order + _MI_DTYPES[mi_type])

    def _matrix(self, buffer: bytes) -> tuple[str, object]:
        """Reads the contents of a miMATRIX element: ``(name, value)``."""
        if not buffer:  # an empty cell element or field
            return '', numpy.zeros((0, 0))
        mi_type, flags, offset = self._element(buffer, 0)
        flags = self._numbers(mi_type, flags)
        array_class = int(flags[0]) & 0xFF
        is_complex = bool(flags[0] & _COMPLEX_FLAG)
        is_logical = bool(flags[0] & _LOGICAL_FLAG)
        mi_type, dims, offset = self._element(buffer, offset)
        shape = tuple(int(d) for d in self._numbers(mi_type, dims))
        mi_type, name, offset = self._element(buffer, offset)
        name = name.decode('latin-1')
        if array_class in _NUMERIC:
            value = self._numeric(buffer, offset, shape, _NUMERIC[array_class], is_complex)
            return name, value.astype(bool) if is_logical else value
        if array_class == _CHAR:
            return name, self._char(buffer, offset, shape)
        if array_class == _CELL:
            return name, self._cell(buffer, offset, shape)
        if array_class == _STRUCT:
            return name, self._struct(buffer, offset, shape)
        if array_class == _SPARSE:
            return name, self._sparse(buffer, offset, shape, is_complex, is_logical)
        raise MatFileError(f'loadmat: {self.path}: variable {name!r} is of MATLAB class '
                           f'{array_class} (an object or function handle), which is not read')

    def _real_imag(self, buffer: bytes, offset: int, is_complex: bool) -> tuple[
            numpy.ndarray, int]:
        mi_type, data, offset = self._element(buffer, offset)
        values = self._numbers(mi_type, data)
        if is_complex:
            mi_type, data, offset = self._element(buffer, offset)
            values = values + 1j * self._numbers(mi_type, data)
        return values, offset

    def _numeric(self, buffer: bytes, offset: int, shape: tuple[int, ...], dtype: str,
                 is_complex: bool) -> numpy.ndarray:
        values, _ = self._real_imag(buffer, offset, is_complex)
        if is_complex:
            dtype = numpy.result_type(dtype, numpy.complex64)
        return values.astype(dtype).reshape(shape, order='F')

    def _char(self, buffer: bytes, offset: int, shape: tuple[int, ...]) -> str:
        mi_type, data, _ = self._element(buffer, offset)
        codes = self._numbers(mi_type, data)
        if not codes.size:
            return ''
        rows = codes.reshape(shape, order='F').reshape(shape[0], -1)
        return '\n'.join(''.join(map(chr, row)) for row in rows)

    def _children(self, buffer: bytes, offset: int, count: int) -> list[tuple[str, object]]:
        children = []
        for _ in range(count):
            mi_type, data, offset = self._element(buffer, offset)
            if mi_type != _MI_MATRIX:
                raise MatFileError(f'loadmat: {self.path} holds an element of type {mi_type} '
                                   f'where a matrix was expected')
            children.append(self._matrix(data))
        return children

    def _cell(self, buffer: bytes, offset: int, shape: tuple[int, ...]) -> numpy.ndarray:
        count = int(numpy.prod(shape))
        cell = numpy.empty(count, dtype=object)
        for k, (_, value) in enumerate(self._children(buffer, offset, count)):
            cell[k] = value
        return cell.reshape(shape, order='F')

    def _struct(self, buffer: bytes, offset: int, shape: tuple[int, ...]) -> object:
        mi_type, length, offset = self._element(buffer, offset)
        length = int(self._numbers(mi_type, length)[0])
        mi_type, names, offset = self._element(buffer, offset)
        fields = [names[k:k + length].split(b'\0', 1)[0].decode('latin-1')
                  for k in range(0, len(names), length)] if length else []
        count = int(numpy.prod(shape))
        children = self._children(buffer, offset, count * len(fields))
        elements = numpy.empty(count, dtype=object)
        for k in range(count):
            row = children[k * len(fields):(k + 1) * len(fields)]
            elements[k] = {field: value for field, (_, value) in zip(fields, row)}
        if count == 1:
            return elements[0]
        return elements.reshape(shape, order='F')

    def _sparse(self, buffer: bytes, offset: int, shape: tuple[int, ...], is_complex: bool,
                is_logical: bool) -> numpy.ndarray:
        mi_type, rows, offset = self._element(buffer, offset)
        rows = self._numbers(mi_type, rows).astype(numpy.intp)
        mi_type, starts, offset = self._element(buffer, offset)
        starts = self._numbers(mi_type, starts).astype(numpy.intp)
        values, _ = self._real_imag(buffer, offset, is_complex)
        n_nonzero = int(starts[-1]) if len(starts) else 0
        columns = numpy.repeat(numpy.arange(len(starts) - 1), numpy.diff(starts))
        dense = numpy.zeros(shape, dtype=bool if is_logical else values.dtype)
        dense[rows[:n_nonzero], columns] = values[:n_nonzero]
        return dense

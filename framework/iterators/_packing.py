"""Moving the arrays of examples through shared memory instead of pickling them.

A worker copies each NumPy array of an example (at any depth of tuples, lists and dicts) into
its region of a shared block and sends a small :class:`Packed` record in its place; the main
process copies the arrays back out. Arrays that do not fit travel pickled, as everything else
does.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

ALIGNMENT = 64


class Packed(NamedTuple):
    """An array left in shared memory: where it starts, its shape and dtype."""

    offset: int
    shape: tuple
    dtype: numpy.dtype


def aligned(nbytes: int) -> int:
    """``nbytes`` rounded up to the alignment of arrays in shared memory."""
    return -(-nbytes // ALIGNMENT) * ALIGNMENT


def _packable(x) -> bool:
    return type(x) is numpy.ndarray and not x.dtype.hasobject and x.nbytes > 0


def pack(example, buffer, start: int, limit: int):
    """Copies the arrays of ``example`` into ``buffer[start:limit]`` where they fit.

    Args:
        example: an example: an array, or tuples, lists and dicts holding arrays.
        buffer: a writable buffer (the shared block), or None to pack nothing.
        start: where the example's region begins.
        limit: where it ends.

    Returns:
        ``(packed, needed)``: the example with :class:`Packed` records in place of the arrays
        copied, and the number of bytes a region would need to hold all its arrays.
    """
    offset = start
    needed = 0

    def visit(x):
        nonlocal offset, needed
        kind = type(x)
        if kind is tuple or kind is list:
            return kind(visit(v) for v in x)
        if kind is dict:
            return {k: visit(v) for k, v in x.items()}
        if not _packable(x):
            return x
        size = aligned(x.nbytes)
        needed += size
        if buffer is None or offset + size > limit:
            return x
        target = numpy.frombuffer(buffer, x.dtype, x.size, offset)
        target.reshape(x.shape)[...] = x
        del target
        record = Packed(offset, x.shape, x.dtype)
        offset += size
        return record

    return visit(example), needed


def unpack(example, buffer):
    """The example with the arrays of its :class:`Packed` records copied out of ``buffer``."""
    kind = type(example)
    if kind is Packed:
        count = math.prod(example.shape)
        view = numpy.frombuffer(buffer, example.dtype, count, example.offset)
        array = view.reshape(example.shape).copy()
        del view
        return array
    if kind is tuple or kind is list:
        return kind(unpack(v, buffer) for v in example)
    if kind is dict:
        return {k: unpack(v, buffer) for k, v in example.items()}
    return example

"""Packing arrays into one contiguous buffer per dtype, so that one collective moves them all.

MPI has no half-precision type for reductions: float16 arrays travel in float32 buffers.
"""

from __future__ import annotations

import numpy

from framework import backend, resources


def transport_dtype(dtype) -> numpy.dtype:
    """The dtype in which arrays of ``dtype`` are reduced over MPI (float16 -> float32)."""
    dtype = numpy.dtype(dtype)
    return numpy.dtype(numpy.float32) if dtype == numpy.float16 else dtype


def group(arrays) -> list[list]:
    """Splits arrays into lists of one transport dtype each, in the order :func:`pack` uses.

    Args:
        arrays: arrays of any dtypes.

    Returns:
        list: lists of arrays, in the order of their dtype's first appearance.
    """
    groups: dict[numpy.dtype, list] = {}
    for array in arrays:
        groups.setdefault(transport_dtype(array.dtype), []).append(array)
    return list(groups.values())


def pack(arrays) -> list[tuple[object, list]]:
    """Copies arrays into contiguous buffers, one per transport dtype, in order.

    Args:
        arrays: arrays of one device (any shapes and dtypes).

    Returns:
        list: ``(buffer, members)`` pairs: ``buffer`` a 1-d array of the device holding the
        ``members`` (the arrays of that transport dtype) one after the other, in workspace of
        the device's memory pool (whose blocks are reused from call to call rather than fresh
        memory that the system must map and zero each time).
    """
    packed = []
    for members in group(arrays):
        dtype = transport_dtype(members[0].dtype)
        size = sum(member.size for member in members)
        buffer = resources.request_workspace(backend.get_device_from_array(members[0]),
                                             size * dtype.itemsize).view(dtype)
        offset = 0
        for member in members:
            buffer[offset:offset + member.size] = member.ravel()
            offset += member.size
        packed.append((buffer, members))
    return packed


def unpack(packed, divisor=None) -> None:
    """Copies the buffers made by :func:`pack` back into their member arrays, in place.

    Args:
        packed: the pairs returned by :func:`pack`, whose buffers may have been changed.
        divisor: when given, each member gets its part of the buffer divided by it (in the
            same pass as the copy: a mean from a sum costs no pass of its own).
    """
    for buffer, members in packed:
        xp = backend.get_array_module(buffer)
        offset = 0
        for member in members:
            part = buffer[offset:offset + member.size].reshape(member.shape)
            if divisor is None:
                member[...] = part
            else:
                xp.divide(part, divisor, out=member, casting='unsafe')
            offset += member.size


def synchronize(buffer) -> None:
    """Waits for the GPU's pending work on ``buffer``'s device before MPI reads it (nothing
    to wait for on the CPU)."""
    if not isinstance(buffer, numpy.ndarray):
        backend.get_array_module(buffer).cuda.get_current_stream().synchronize()

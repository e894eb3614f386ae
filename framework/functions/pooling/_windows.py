"""The pooling windows of an array and the reductions, gathers and scatters over them.

A :class:`Windows` describes the windows of a pooling (kernel size, stride, padding, cover_all)
over inputs of a given spatial size. Its methods compute on arrays ``(N, C, *spatial)`` of any
array module, looping over kernel offsets and stride phases (never over pixels or batch items).

The padded input is copied into a buffer split by stride phase: padded position ``w_d`` along
spatial axis ``d`` lives at phase ``w_d % s_d`` and block ``w_d // s_d``, the buffer being
``(N, C, s_1, ..., s_n, b_1, ..., b_n)``. In this layout the elements at one kernel offset of
all windows form a block of the plane of one phase; read as a flat run of the plane, they are a
contiguous slice (with a few unused elements at the end of each block row), so every step of
the loop over offsets runs over contiguous memory, several times faster in NumPy than over the
stride-``s`` windows of a plainly padded array. Windows that do not overlap and outnumber the
outputs (global pooling) are instead processed all at once as the slice
``[:, :, :k_1, ..., :k_n, :o_1, ..., :o_n]`` of the buffer.
"""

from __future__ import annotations

import itertools
import math

import numpy

from framework import backend
from framework.functions.pooling._axis_max import axis_max
from framework.utils.conv import WindowGeometry


def _select(values, mask, out):
    """``out = values`` where ``mask``, else 0, exactly: the bit patterns are multiplied by the
    mask as integers (``values * mask`` would turn inf into nan where the mask is False)."""
    xp = backend.get_array_module(values)
    bits = numpy.dtype(f'u{values.dtype.itemsize}')
    xp.multiply(values.view(bits), mask, out=out.view(bits))


class Windows:
    """Pooling windows over inputs of spatial size ``in_size``.

    Args:
        in_size, ksize, stride, pad: one int per spatial axis.
        cover_all: extend the input at the end so that the windows cover all of it (Chainer's
            ``cover_all``).

    Attributes:
        geometry (WindowGeometry): the windows' geometry (padding, output size, the count
            of input elements in each window).
        out_size (tuple of int): the number of windows along each axis.
        n_offsets (int): the number of kernel offsets, ``k_1 * ... * k_n``. The window index
            of an offset (as in max pooling's indices) is its position in row-major order.
    """

    def __init__(self, in_size, ksize, stride, pad, cover_all: bool):
        self.in_size = tuple(in_size)
        self.ksize = tuple(ksize)
        self.stride = tuple(stride)
        self.pad = tuple(pad)
        self.geometry = WindowGeometry.for_input(in_size, ksize, stride, pad, cover_all)
        self.out_size = self.geometry.out_size
        self.n_offsets = math.prod(self.ksize)
        self._all_at_once = (all(k <= s for k, s in zip(self.ksize, self.stride))
                             and self.n_offsets > math.prod(self.out_size))
        blocks = [max(-(-(p + n) // s), o + (k - 1) // s) for n, k, s, p, o in
                  zip(self.in_size, self.ksize, self.stride, self.pad, self.out_size)]
        if not self._all_at_once:
            blocks[0] += 1  # the flat run of the last offset reaches into one more block row
        self._blocks = tuple(blocks)
        self._buffer_size = self.stride + self._blocks
        row_sizes = [math.prod(blocks[d + 1:]) for d in range(len(blocks))]
        self._run = self.out_size[0] * row_sizes[0]
        # For each offset (when they are looped over): the flat phase index and the start of
        # its run in the plane.
        self._runs = [] if self._all_at_once else [
            (int(numpy.ravel_multi_index([k % s for k, s in zip(o, self.stride)], self.stride)),
             sum((k // s) * r for k, s, r in zip(o, self.stride, row_sizes)))
            for o in itertools.product(*(range(k) for k in self.ksize))]
        # The buffer is a mere reshape of the input when no padding is needed and the phase
        # and block axes longer than 1 come in the same order in both layouts.
        input_order = [(axis, d) for d, (b, s) in enumerate(zip(blocks, self.stride))
                       for axis, size in (('block', b), ('phase', s)) if size > 1]
        buffer_order = ([('phase', d) for d, s in enumerate(self.stride) if s > 1]
                        + [('block', d) for d, b in enumerate(blocks) if b > 1])
        self._reshape_only = (not any(self.pad) and input_order == buffer_order and all(
            s * b == n for s, b, n in zip(self.stride, blocks, self.in_size)))
        self._index_dtype = numpy.int8 if self.n_offsets <= 127 else numpy.intp

    # --- layouts ------------------------------------------------------------------------------

    def _phases(self):
        """For each stride phase holding input: its index, the input's and the buffer's slices."""
        per_axis = []
        for n, s, p in zip(self.in_size, self.stride, self.pad):
            entries = []
            for phase in range(s):
                first = (phase - p) % s
                count = len(range(first, n, s))
                if count:
                    block = (first + p) // s
                    entries.append((phase, slice(first, None, s), slice(block, block + count)))
            per_axis.append(entries)
        for combination in itertools.product(*per_axis):
            phases, sources, blocks = zip(*combination)
            yield phases, sources, blocks

    def buffer(self, x, fill):
        """The input ``x`` in the buffer layout, padded with ``fill`` (for reading)."""
        shape = x.shape[:2] + self._buffer_size
        if self._reshape_only:
            return x.reshape(shape)
        xp = backend.get_array_module(x)
        buf = xp.full(shape, fill, x.dtype)
        for phases, sources, blocks in self._phases():
            buf[(slice(None), slice(None)) + phases + blocks] = x[(Ellipsis,) + sources]
        return buf

    def _zeros(self, like):
        """A zero buffer for an image of the batch, channels and dtype of ``like``."""
        xp = backend.get_array_module(like)
        return xp.zeros(like.shape[:2] + self._buffer_size, like.dtype)

    def image(self, buf):
        """The input-sized image ``(N, C, *in_size)`` held by a buffer."""
        shape = buf.shape[:2] + self.in_size
        if self._reshape_only:
            return buf.reshape(shape)
        xp = backend.get_array_module(buf)
        img = xp.empty(shape, buf.dtype)
        for phases, sources, blocks in self._phases():
            img[(Ellipsis,) + sources] = buf[(slice(None), slice(None)) + phases + blocks]
        return img

    def _planes(self, buf):
        """The buffer as ``(N, C, phases, plane)``: the runs of :meth:`_run_of` index it."""
        return buf.reshape(buf.shape[:2] + (math.prod(self.stride), math.prod(self._blocks)))

    def _run_of(self, planes, k):
        """The elements at offset ``k`` of all windows, as a run ``(N, C, L)`` of a plane."""
        phase, start = self._runs[k]
        return planes[:, :, phase, start:start + self._run]

    def _to_runs(self, a, dtype=None):
        """An output-sized array ``(N, C, *out_size)`` in the run layout ``(N, C, L)`` (the
        unused elements zero)."""
        xp = backend.get_array_module(a)
        lead = a.shape[:2]
        runs = xp.zeros(lead + self.out_size[:1] + self._blocks[1:], dtype or a.dtype)
        runs[(Ellipsis,) + tuple(slice(0, o) for o in self.out_size[1:])] = a
        return runs.reshape(lead + (self._run,))

    def _from_runs(self, runs, dtype=None):
        """The output-sized array ``(N, C, *out_size)`` of the run layout ``runs`` (a copy)."""
        shaped = runs.reshape(runs.shape[:2] + self.out_size[:1] + self._blocks[1:])
        outputs = shaped[(Ellipsis,) + tuple(slice(0, o) for o in self.out_size[1:])]
        return outputs.astype(dtype or runs.dtype)

    def _all_windows(self, buf):
        """All windows at once, ``(N, C, *ksize, *out_size)``; only for non-overlapping ones."""
        return buf[(slice(None), slice(None)) + tuple(slice(0, k) for k in self.ksize)
                   + tuple(slice(0, o) for o in self.out_size)]

    def _window_axes(self):
        return tuple(range(2, 2 + len(self.ksize)))

    def _flat_windows(self, buf):
        """All windows at once, ``(N, C, K, *out_size)`` (a copy where slicing broke them)."""
        return self._all_windows(buf).reshape(buf.shape[:2] + (self.n_offsets,)
                                              + self.out_size)

    # --- reductions and gathers: input-sized to output-sized ----------------------------------

    def reduce_max(self, x, with_indexes: bool):
        """The maximum of each window (the padding is -inf) and, when asked for, the window
        index of its first occurrence (an integer array, int8 where the indices fit); else
        None.

        Without indices, the input is reduced one axis at a time (:func:`axis_max`, no padded
        buffer), unless its windows do not overlap and outnumber the outputs (global pooling:
        one reduction over the buffer).
        """
        if not (with_indexes or self._all_at_once):
            return axis_max(x, self.ksize, self.stride, self.pad, self.out_size), None
        buf = self.buffer(x, -numpy.inf)
        if self._all_at_once:
            y = self._all_windows(buf).max(axis=self._window_axes())
            return y, self._flat_windows(buf).argmax(axis=2) if with_indexes else None
        xp = backend.get_array_module(x)
        planes = self._planes(buf)
        acc = self._run_of(planes, 0).copy()
        indexes = xp.zeros(acc.shape, self._index_dtype)
        step = xp.empty_like(indexes)
        greater = xp.empty(acc.shape, numpy.bool_)
        for k in range(1, self.n_offsets):
            run = self._run_of(planes, k)
            xp.greater(run, acc, out=greater)  # strictly: the first maximum keeps its index
            xp.maximum(acc, run, out=acc)
            # indexes = k where greater, by arithmetic (branch-free, unlike putmask)
            xp.subtract(k, indexes, out=step)
            xp.multiply(step, greater, out=step)
            xp.add(indexes, step, out=indexes)
        return self._from_runs(acc), self._from_runs(indexes)

    def reduce_sum(self, x, divisor):
        """The sum of each window divided by ``divisor``; the padding is 0.

        float16 inputs are summed in float32, as NumPy's ``mean`` does.
        """
        acc_dtype = numpy.float32 if x.dtype == numpy.float16 else x.dtype
        buf = self.buffer(x, 0)
        xp = backend.get_array_module(x)
        if self._all_at_once:
            total = self._all_windows(buf).sum(axis=self._window_axes(), dtype=acc_dtype)
        else:
            planes = self._planes(buf)
            acc = self._run_of(planes, 0).astype(acc_dtype)
            for k in range(1, self.n_offsets):
                xp.add(acc, self._run_of(planes, k), out=acc)
            total = self._from_runs(acc)
        xp.divide(total, divisor, out=total)
        return total.astype(x.dtype, copy=False)

    def gather(self, x, indexes):
        """The element of each window at its window index (the padding is 0)."""
        buf = self.buffer(x, 0)
        xp = backend.get_array_module(x)
        if self._all_at_once:
            cols = self._flat_windows(buf)
            return xp.take_along_axis(cols, indexes[:, :, None], axis=2)[:, :, 0]
        planes = self._planes(buf)
        index_runs = self._to_runs(indexes, self._index_dtype)
        y = xp.zeros(index_runs.shape, x.dtype)
        mask = xp.empty(index_runs.shape, numpy.bool_)
        term = xp.empty_like(y)
        for k in range(self.n_offsets):
            xp.equal(index_runs, k, out=mask)
            _select(self._run_of(planes, k), mask, term)
            xp.add(y, term, out=y)
        return self._from_runs(y)

    # --- spreads and scatters: output-sized to input-sized (the adjoints) ---------------------

    def spread(self, g):
        """Adds each window's value ``g`` to all the elements of the window."""
        xp = backend.get_array_module(g)
        buf = self._zeros(g)
        if self._all_at_once:
            self._all_windows(buf)[...] = g.reshape(
                g.shape[:2] + (1,) * len(self.ksize) + self.out_size)
        else:
            planes = self._planes(buf)
            g_runs = self._to_runs(g)
            for k in range(self.n_offsets):
                run = self._run_of(planes, k)
                xp.add(run, g_runs, out=run)
        return self.image(buf)

    def scatter(self, g, indexes):
        """Adds each window's value ``g`` to the window's element at its window index."""
        xp = backend.get_array_module(g)
        buf = self._zeros(g)
        if self._all_at_once:
            windows = self._all_windows(buf)
            ks = xp.arange(self.n_offsets).reshape((-1,) + (1,) * len(self.out_size))
            chosen = xp.where(indexes[:, :, None] == ks, g[:, :, None], 0)
            windows[...] = chosen.reshape(windows.shape)
        else:
            planes = self._planes(buf)
            g_runs = self._to_runs(g)
            index_runs = self._to_runs(indexes, self._index_dtype)
            mask = xp.empty(g_runs.shape, numpy.bool_)
            term = xp.empty_like(g_runs)
            for k in range(self.n_offsets):
                xp.equal(index_runs, k, out=mask)
                _select(g_runs, mask, term)
                run = self._run_of(planes, k)
                xp.add(run, term, out=run)
        return self.image(buf)

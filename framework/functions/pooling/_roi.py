"""The linear maps behind the region-of-interest functions, and their argument checks.

Once the regions are known, every RoI function reads each output element from a few elements
of ``x`` (the *taps* of its bin): a weighted sum for the average variants, the taps of the best
sample for the max variants. The functions build the taps from ``rois`` and ``roi_indices`` with
array operations over all regions and bins at once (:mod:`._roi_grids`) and then

* gather: ``y[b, c] = sum_k weights[b, k] * x_rows[rows[b, k], c]``, and, for the gradient,
* scatter: ``gx_rows[rows[b, k], c] += weights[b, k] * gy[b, c]`` (the adjoint),

where ``b`` runs over (roi, output row, output column) and ``x_rows`` is ``x`` laid out with one
row of channels per pixel and position-sensitive group. The max variants pick one sample per
bin and channel, so their taps depend on the channel (``rows[b, k, c]``). The gradient of the
gather is the scatter and the gradient of the scatter is the gather, hence double backprop.

The gathered taps are processed in chunks of bins (one chunk at common sizes) so that memory stays
bounded however large the regions are.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable

import numpy

from framework import backend
from framework.config import config
from framework.function_node import FunctionNode
from framework.functions._inputs import array_input, float_input, is_int
from framework.utils import type_check
from framework.variable import Variable

#: Elements gathered at once (bins x taps x channels): 128 MiB of float32.
_CHUNK_ELEMENTS = 2 ** 25


# --- arguments -------------------------------------------------------------------------------

def check_arrays(fname: str, x, rois, roi_indices):
    """Checks ``x`` (float, 4-D), ``rois`` (float, ``(R, 4)``) and ``roi_indices`` (integers,
    ``(R,)``, each a batch index of x). Returns their arrays."""
    x_array = float_input(fname, 'x', x)
    type_check.expect_ndim(fname, 'x', x_array, ndim=4)
    rois_array = float_input(fname, 'rois', rois)
    type_check.expect_shape(fname, 'rois', rois_array, (None, 4))
    indices = array_input(fname, 'roi_indices', roi_indices, 'iu')
    if indices.shape != rois_array.shape[:1]:
        raise ValueError(f'{fname}: roi_indices must have shape (R,) with one batch index per '
                         f'roi, R = {rois_array.shape[0]} for rois of shape {rois_array.shape}, '
                         f'but got shape {indices.shape}')
    check_batch_indices(fname, 'roi_indices', indices, x_array.shape)
    return x_array, rois_array, indices


def check_batch_indices(fname: str, name: str, indices, x_shape) -> None:
    """Checks that every batch index (an integer array) is in ``[0, N)`` for x of ``x_shape``."""
    if indices.size == 0:
        return
    low, high = int(indices.min()), int(indices.max())
    if low < 0 or high >= x_shape[0]:
        raise ValueError(f'{fname}: {name} must be in [0, {x_shape[0]}), the batch of x of shape '
                         f'{x_shape}, but got values from {low} to {high}')


def int_pair(fname: str, name: str, value, allow_none: bool = False) -> tuple:
    """``value`` (an int or a pair of ints, each at least 1, or None where allowed) as a pair."""
    expected = 'a positive int or a pair of them' + (' (or None)' if allow_none else '')
    if is_int(value) or (allow_none and value is None):
        items = (value, value)
    elif isinstance(value, Iterable) and not isinstance(value, str):
        items = tuple(value)
        if len(items) != 2:
            raise ValueError(f'{fname}: {name} must be {expected}, but got {value!r}')
    else:
        raise TypeError(f'{fname}: {name} must be {expected}, but got {type(value).__name__}')
    for item in items:
        if item is None and allow_none:
            continue
        if not is_int(item):
            raise TypeError(f'{fname}: {name} must be {expected}, but got {value!r}')
        if item < 1:
            raise ValueError(f'{fname}: {name} must be {expected}, but got {value!r}')
    return tuple(None if item is None else int(item) for item in items)


def position_sensitive_outsize(fname: str, outsize, group_size, x_shape) -> tuple[int, int]:
    """Checks ChainerCV's ``outsize`` of the position-sensitive functions (``(C, H, W)``,
    ``(H, W)`` or an int, where C, if given, must be the channels of x over ``group_size ** 2``)
    and ``group_size`` against x of ``x_shape``; returns ``(outh, outw)``."""
    out_channels = None
    if isinstance(outsize, Iterable) and not isinstance(outsize, str):
        outsize = tuple(outsize)
        if len(outsize) == 3:
            out_channels, outsize = outsize[0], outsize[1:]
    outh, outw = int_pair(fname, 'outsize', outsize)
    if not is_int(group_size):
        raise TypeError(f'{fname}: group_size must be a positive int, '
                        f'but got {type(group_size).__name__}')
    if group_size < 1:
        raise ValueError(f'{fname}: group_size must be a positive int, but got {group_size}')
    groups = int(group_size) ** 2
    if out_channels is not None:
        if not is_int(out_channels):
            raise TypeError(f'{fname}: outsize[0], the output channels, must be a positive '
                            f'int, but got {type(out_channels).__name__}')
        if out_channels < 1:
            raise ValueError(f'{fname}: outsize[0], the output channels, must be a positive '
                             f'int, but got {out_channels}')
        if x_shape[1] != out_channels * groups:
            raise ValueError(f'{fname}: x must have outsize[0] * group_size ** 2 = '
                             f'{out_channels} * {groups} channels, but got x of shape {x_shape}')
    elif x_shape[1] % groups:
        raise ValueError(f'{fname}: the channels of x must be a multiple of group_size ** 2 = '
                         f'{groups}, but got x of shape {x_shape}')
    return outh, outw


def positive_scale(fname: str, value) -> float:
    """Checks that ``spatial_scale`` is a positive finite real number; returns it as a float."""
    if isinstance(value, (bool, numpy.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f'{fname}: spatial_scale must be a positive float, '
                        f'but got {type(value).__name__}')
    if not 0 < value < math.inf:
        raise ValueError(f'{fname}: spatial_scale must be a positive float, but got {value!r}')
    return float(value)


# --- layouts ---------------------------------------------------------------------------------

def work_dtype(dtype) -> numpy.dtype:
    """The dtype the taps are computed in: float32 for float16 inputs, else the input's."""
    return numpy.promote_types(dtype, numpy.float32)


def _to_rows(x, groups: int, dtype):
    """``(N, C * groups, H, W)`` to ``(N * H * W * groups, C)``; input channel
    ``c * groups + g`` goes to row ``((n * H + y) * W + x) * groups + g``, column ``c``."""
    xp = backend.get_array_module(x)
    n, channels, height, width = x.shape
    c = channels // groups
    rows = x.reshape(n, c, groups, height, width).transpose(0, 3, 4, 2, 1).reshape(
        n * height * width * groups, c)
    return xp.ascontiguousarray(rows, dtype=dtype)


def _from_rows(rows, x_shape, groups: int):
    """The inverse of :func:`_to_rows`."""
    n, channels, height, width = x_shape
    return rows.reshape(n, height, width, groups, channels // groups).transpose(
        0, 4, 3, 1, 2).reshape(x_shape)


def _to_bins(y, dtype):
    """``(R, C, outh, outw)`` to ``(R * outh * outw, C)``."""
    r, c, outh, outw = y.shape
    return y.transpose(0, 2, 3, 1).reshape(r * outh * outw, c).astype(dtype, copy=False)


def _from_bins(y, outsize, dtype):
    """``(R * outh * outw, C)`` to a contiguous ``(R, C, outh, outw)`` of ``dtype``."""
    xp = backend.get_array_module(y)
    outh, outw = outsize
    y = y.reshape(y.shape[0] // (outh * outw), outh, outw, y.shape[1]).transpose(0, 3, 1, 2)
    return xp.ascontiguousarray(y.astype(dtype, copy=False))


def _chunks(n_bins: int, per_bin: int):
    """Slices of the bins, each gathering at most about ``_CHUNK_ELEMENTS`` elements."""
    size = max(1, _CHUNK_ELEMENTS // max(1, per_bin))
    return [slice(start, min(start + size, n_bins)) for start in range(0, n_bins, size)]


# --- the linear map --------------------------------------------------------------------------

class Taps:
    """The linear map of a RoI function (see the module docstring).

    Attributes:
        rows: integer array ``(B, K)`` (taps shared by the channels) or ``(B, K, C)`` (taps of
            each channel), rows of the row layout of x.
        weights: float array of the shape of ``rows``.
        x_shape: the shape ``(N, C * groups, H, W)`` of x.
        groups: the position-sensitive groups (1 for the plain RoI functions).
        outsize: ``(outh, outw)``; ``B`` is ``R * outh * outw``.
    """

    def __init__(self, rows, weights, x_shape, groups: int, outsize):
        self.rows, self.weights = rows, weights
        self.x_shape, self.groups, self.outsize = tuple(x_shape), groups, tuple(outsize)

    def gather(self, x):
        """``y = A x``: the output ``(R, C, outh, outw)`` for x of ``x_shape``."""
        xp = backend.get_array_module(x)
        work = work_dtype(x.dtype)
        x_rows = _to_rows(x, self.groups, work)
        channels = x_rows.shape[1]
        n_bins, n_taps = self.rows.shape[:2]
        y = xp.empty((n_bins, channels), work)
        for part in _chunks(n_bins, n_taps * channels):
            rows, weights = self.rows[part], self.weights[part].astype(work, copy=False)
            if rows.ndim == 2:
                y[part] = xp.matmul(weights[:, None, :], x_rows[rows])[:, 0]
            else:
                y[part] = (weights * x_rows[rows, xp.arange(channels)]).sum(axis=1)
        return _from_bins(y, self.outsize, x.dtype)

    def scatter(self, gy):
        """``gx = A^T gy``: the gradient of x, of ``x_shape`` and gy's dtype."""
        xp = backend.get_array_module(gy)
        gy_bins = _to_bins(gy, work_dtype(gy.dtype))
        n_bins, channels = gy_bins.shape
        n, _, height, width = self.x_shape
        n_rows = n * height * width * self.groups
        channel = xp.arange(channels)
        total = xp.zeros(n_rows * channels, numpy.float64)
        for part in _chunks(n_bins, self.rows.shape[1] * channels):
            rows, weights = self.rows[part].astype(numpy.int64), self.weights[part]
            if rows.ndim == 2:
                flat = rows[:, :, None] * channels + channel
                values = weights[:, :, None] * gy_bins[part][:, None, :]
            else:
                flat = rows * channels + channel
                values = weights * gy_bins[part][:, None, :]
            total += xp.bincount(flat.ravel(), weights=values.ravel(), minlength=total.size)
        gx = _from_rows(total.reshape(n_rows, channels), self.x_shape, self.groups)
        return gx.astype(gy.dtype)


class Samples:
    """Sample points of every bin, each read through ``corners`` taps.

    Attributes:
        rows, weights: ``(B, S * corners)``, the taps of the ``S`` samples of each bin (the value
            of a sample is the weighted sum of its taps; weights are 0 for absent samples).
        valid: bool ``(B, S)``, the samples that exist (inside the image and the bin's grid).
        count: ``(B,)``, what the average of a bin divides the sum of its samples by.
    """

    def __init__(self, rows, weights, valid, count, corners: int, x_shape, groups: int,
                 outsize):
        self.rows, self.weights, self.valid, self.count = rows, weights, valid, count
        self.corners = corners
        self.x_shape, self.groups, self.outsize = x_shape, groups, outsize

    def average(self, x):
        """The average of the samples of each bin, and the taps of that map."""
        weights = (self.weights / self.count[:, None]).astype(work_dtype(x.dtype))
        taps = Taps(self.rows, weights, self.x_shape, self.groups, self.outsize)
        return taps.gather(x), taps

    def maximum(self, x, with_taps: bool = True, grad_mask=None,
                empty_value: float = -numpy.inf):
        """The maximum over the samples of each bin (the first one on ties, ``empty_value``
        where a bin has none), and the taps of the chosen samples (None without ``with_taps``),
        zeroed where ``grad_mask`` (bool ``(B,)``) is False."""
        xp = backend.get_array_module(x)
        work = work_dtype(x.dtype)
        x_rows = _to_rows(x, self.groups, work)
        channels = x_rows.shape[1]
        n_bins, n_samples = self.valid.shape
        y = xp.empty((n_bins, channels), work)
        index_dtype = numpy.int32 if x_rows.shape[0] < 2 ** 31 else numpy.int64
        if with_taps:
            rows = xp.empty((n_bins, self.corners, channels), index_dtype)
            weights = xp.empty((n_bins, self.corners, channels), work)
        for part in _chunks(n_bins, self.rows.shape[1] * channels):
            part_rows = self.rows[part].reshape(-1, n_samples, self.corners)
            part_weights = self.weights[part].reshape(-1, n_samples, self.corners).astype(work)
            values = xp.matmul(part_weights[:, :, None, :], x_rows[part_rows])[:, :, 0]
            values = xp.where(self.valid[part][:, :, None], values, -numpy.inf)
            best = values.argmax(axis=1)
            y[part] = xp.take_along_axis(values, best[:, None, :], axis=1)[:, 0]
            if not with_taps:
                continue
            bins = xp.arange(part_rows.shape[0])[:, None]
            rows[part] = part_rows[bins, best].transpose(0, 2, 1)
            weights[part] = part_weights[bins, best].transpose(0, 2, 1)
        if empty_value != -numpy.inf:
            y[~self.valid.any(axis=1)] = empty_value
        y = _from_bins(y, self.outsize, x.dtype)
        if not with_taps:
            return y, None
        if grad_mask is not None:
            weights *= grad_mask[:, None, None]
        return y, Taps(rows, weights, self.x_shape, self.groups, self.outsize)


# --- nodes -----------------------------------------------------------------------------------

class RoiFunction(FunctionNode):
    """Base of the RoI functions: inputs ``(x, rois[, roi_indices])``.

    Subclasses implement :meth:`pool`. The gradient of x scatters gy through the taps; ``rois``
    and ``roi_indices`` get no gradient, as in Chainer. The max functions find the taps only
    where the gradient of x is wanted (``with_taps``, set when the node is applied).
    """

    taps: Taps | None = None
    with_taps: bool = True

    def apply(self, inputs):
        x = inputs[0]
        self.with_taps = isinstance(x, Variable) and x.requires_grad and config.enable_backprop
        return super().apply(inputs)

    def pool(self, x, *regions):
        """Returns the output array and the :class:`Taps` of the map from x."""
        raise NotImplementedError

    def forward(self, inputs):
        y, self.taps = self.pool(*inputs)
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        gx = None
        if 0 in indexes and gy is not None:
            gx = RoiScatter(self.taps).apply((gy,))[0]
        return tuple(gx if i == 0 else None for i in indexes)


class RoiGather(FunctionNode):
    """``y = A x`` for the taps ``A`` of a RoI function (the gradient of :class:`RoiScatter`)."""

    def __init__(self, taps: Taps):
        self.taps = taps

    def forward(self, inputs):
        return self.taps.gather(inputs[0]),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return (None if gy is None else RoiScatter(self.taps).apply((gy,))[0]),


class RoiScatter(FunctionNode):
    """``gx = A^T gy``: the gradient of a RoI function with respect to x."""

    def __init__(self, taps: Taps):
        self.taps = taps

    def forward(self, inputs):
        return self.taps.scatter(inputs[0]),

    def backward(self, indexes, grad_outputs):
        ggx, = grad_outputs
        return (None if ggx is None else RoiGather(self.taps).apply((ggx,))[0]),

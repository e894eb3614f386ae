"""Argument checks shared by the convolution functions."""

from __future__ import annotations

from collections.abc import Sequence

from framework.functions._inputs import float_input, is_int, positive_int, spatial_tuple
from framework.utils import type_check
from framework.utils.conv import get_conv_outsize, get_conv_outsizes, get_deconv_outsize


class Geometry:
    """The window arguments of a convolution, checked and one int per spatial axis.

    Attributes:
        stride, pad, dilate (tuple of int): per spatial axis.
        groups (int): the number of channel groups.
    """

    def __init__(self, fname: str, n_spatial: int, stride, pad, dilate, groups):
        self.stride = spatial_tuple(fname, 'stride', stride, n_spatial, 1)
        self.pad = spatial_tuple(fname, 'pad', pad, n_spatial, 0)
        self.dilate = spatial_tuple(fname, 'dilate', dilate, n_spatial, 1)
        self.groups = positive_int(fname, 'groups', groups)

    def describe(self, ksize) -> str:
        return (f'ksize {tuple(ksize)}, stride {self.stride}, pad {self.pad}, '
                f'dilate {self.dilate}')


def conv_inputs(fname: str, x, W, n_spatial: int | None):
    """The arrays of ``x`` and ``W``: float, ``W`` with as many axes as ``x``, and ``x`` with
    ``n_spatial`` spatial axes (at least one when None)."""
    x_array = float_input(fname, 'x', x)
    W_array = float_input(fname, 'W', W)
    if n_spatial is None:
        type_check.expect_ndim(fname, 'x', x_array, min_ndim=3)
    else:
        type_check.expect_ndim(fname, 'x', x_array, ndim=n_spatial + 2)
    type_check.expect_ndim(fname, 'W', W_array, ndim=x_array.ndim)
    return x_array, W_array


def _check_groups(fname: str, groups: int, what: str, count: int, shape) -> None:
    if count % groups:
        raise ValueError(f'{fname}: groups={groups} must divide the number of {what}, '
                         f'{count} ({shape})')


def check_bias(fname: str, b, size: int, x_dtype, same_dtype: bool) -> None:
    """Checks that ``b`` is None or a float array of shape ``(size,)`` (of ``x_dtype`` when
    ``same_dtype``)."""
    if b is None:
        return
    b_array = float_input(fname, 'b', b)
    type_check.expect_shape(fname, 'b', b_array, (size,))
    if same_dtype and b_array.dtype != x_dtype:
        raise TypeError(f'{fname}: b must have the dtype of x ({x_dtype}), '
                        f'but got dtype {b_array.dtype}')


def check_out_size(fname: str, x_shape, ksize, geometry: Geometry, cover_all: bool) -> None:
    """Checks that the windows of a convolution fit in the input at least once per axis."""
    out = get_conv_outsizes(x_shape[2:], ksize, geometry.stride, geometry.pad, cover_all,
                            geometry.dilate)
    if any(o <= 0 for o in out):
        raise ValueError(f'{fname}: the windows ({geometry.describe(ksize)}, '
                         f'cover_all={cover_all}) do not fit in the spatial size '
                         f'{tuple(x_shape[2:])} of x: the output size would be {out}')


def convolution_arguments(fname: str, x, W, b, n_spatial: int | None, stride, pad, cover_all,
                          dilate, groups, bias_same_dtype: bool):
    """Checks the arguments of a convolution and returns its :class:`Geometry`.

    Args:
        n_spatial: the number of spatial axes x must have; None for any (at least one).
        bias_same_dtype: whether ``b`` must have x's dtype (else any float dtype).

    Raises:
        TypeError: for non-float inputs or a bias of the wrong dtype.
        ValueError: for shapes that do not fit together or an empty output.
    """
    x_array, W_array = conv_inputs(fname, x, W, n_spatial)
    geometry = Geometry(fname, x_array.ndim - 2, stride, pad, dilate, groups)
    groups = geometry.groups
    channels = x_array.shape[1]
    _check_groups(fname, groups, 'channels of x', channels, f'x of shape {x_array.shape}')
    _check_groups(fname, groups, 'output channels', W_array.shape[0],
                  f'W.shape[0] of W of shape {W_array.shape}')
    if W_array.shape[1] * groups != channels:
        raise ValueError(f'{fname}: x of shape {x_array.shape} has {channels} channels, but W '
                         f'of shape {W_array.shape} with groups={groups} expects '
                         f'W.shape[1] * groups = {W_array.shape[1] * groups}')
    check_bias(fname, b, W_array.shape[0], x_array.dtype, bias_same_dtype)
    check_out_size(fname, x_array.shape, W_array.shape[2:], geometry, bool(cover_all))
    return geometry


def _outsize_entries(fname: str, outsize, n: int):
    if outsize is None:
        return (None,) * n
    if is_int(outsize):
        outsize = (outsize,) * n
    if not isinstance(outsize, Sequence) or not all(v is None or is_int(v) for v in outsize):
        raise TypeError(f'{fname}: outsize must be None or a sequence of {n} ints, '
                        f'but got {outsize!r}')
    if len(outsize) != n:
        raise ValueError(f'{fname}: outsize must have {n} entries (one per spatial axis of x), '
                         f'but got {tuple(outsize)}')
    if any(v is not None and v <= 0 for v in outsize):
        raise ValueError(f'{fname}: outsize must be positive, but got {tuple(outsize)}')
    return tuple(None if v is None else int(v) for v in outsize)


def deconvolution_arguments(fname: str, x, W, b, n_spatial: int | None, stride, pad, outsize,
                            dilate, groups, bias_same_dtype: bool):
    """Checks the arguments of a transposed convolution.

    Returns:
        tuple: the :class:`Geometry` and the output's spatial size (``outsize`` with the
        entries that are None inferred as Chainer does).

    Raises:
        TypeError: for non-float inputs or a bias of the wrong dtype.
        ValueError: for shapes that do not fit together or an impossible ``outsize``.
    """
    x_array, W_array = conv_inputs(fname, x, W, n_spatial)
    n = x_array.ndim - 2
    geometry = Geometry(fname, n, stride, pad, dilate, groups)
    groups = geometry.groups
    channels = x_array.shape[1]
    if W_array.shape[0] != channels:
        raise ValueError(f'{fname}: x of shape {x_array.shape} has {channels} channels, but W '
                         f'of shape {W_array.shape} expects W.shape[0] = {W_array.shape[0]}')
    _check_groups(fname, groups, 'channels of x', channels, f'x of shape {x_array.shape}')
    check_bias(fname, b, W_array.shape[1] * groups, x_array.dtype, bias_same_dtype)
    ksize = W_array.shape[2:]
    in_size = x_array.shape[2:]
    sizes = []
    for axis, entry in enumerate(_outsize_entries(fname, outsize, n)):
        args = (ksize[axis], geometry.stride[axis], geometry.pad[axis])
        d = geometry.dilate[axis]
        if entry is None:
            entry = get_deconv_outsize(in_size[axis], *args, d=d)
            if entry <= 0:
                raise ValueError(f'{fname}: the output size inferred from x of shape '
                                 f'{x_array.shape} ({geometry.describe(ksize)}) is not '
                                 f'positive along spatial axis {axis}: {entry}')
        else:
            low = get_conv_outsize(entry, *args, d=d)
            high = get_conv_outsize(entry, *args, cover_all=True, d=d)
            if not low <= in_size[axis] <= high:
                raise ValueError(f'{fname}: outsize {tuple(outsize)} is impossible for x of '
                                 f'shape {x_array.shape} ({geometry.describe(ksize)}): along '
                                 f'spatial axis {axis}, an output of size {entry} is the '
                                 f'transposed convolution of an input of size {low}'
                                 + (f' to {high}' if high != low else '')
                                 + f', not {in_size[axis]}')
        sizes.append(entry)
    return geometry, tuple(sizes)

"""The windows of images copied into columns by one kernel on a GPU: padding, strides and
dilation resolved per element, so that no padded copy of the input is made."""

from __future__ import annotations

import functools

from framework import backend

#: The axes of a column element: image, channel, kernel row and column, output row and column.
AXES = ('n', 'c', 'ky', 'kx', 'oy', 'ox')


@functools.cache
def _kernel(order: tuple[str, ...]):
    """The kernel writing columns laid out in ``order`` (a permutation of :data:`AXES`,
    outermost first), contiguous."""
    cupy = backend._cupy()
    decompose = ['ptrdiff_t t = i;']
    for axis in reversed(order[1:]):
        decompose.append(f'const ptrdiff_t {axis} = t % size_{axis}; t /= size_{axis};')
    decompose.append(f'const ptrdiff_t {order[0]} = t;')
    body = ' '.join(decompose) + '''
        const ptrdiff_t y = oy * sy - py + ky * dy;
        const ptrdiff_t x_ = ox * sx - px + kx * dx;
        col = (y >= 0 && y < h && x_ >= 0 && x_ < w)
            ? (T)src[n * stride_n + c * stride_c + y * stride_y + x_ * stride_x]
            : (T)(float)fill;'''
    params = ('raw S src, int64 size_n, int64 size_c, int64 size_ky, int64 size_kx, '
              'int64 size_oy, int64 size_ox, int64 h, int64 w, int64 stride_n, '
              'int64 stride_c, int64 stride_y, int64 stride_x, int64 sy, int64 sx, '
              'int64 py, int64 px, int64 dy, int64 dx, float64 fill')
    return cupy.ElementwiseKernel(params, 'T col', body, 'im2col_' + '_'.join(order))


def im2col(x, geometry, fill, order: tuple[str, ...], out) -> None:
    """Writes the windows of images into ``out``.

    Args:
        x (cupy.ndarray): the images, 4-D, any strides; ``x.transpose(layout)`` is
            ``(N, C, H, W)``.
        geometry (WindowGeometry): the windows over ``(H, W)`` (two spatial axes).
        fill (float): the value of the elements outside the image (the padding).
        order (tuple of str): the layout of ``out``, a permutation of :data:`AXES`.
        out (cupy.ndarray): contiguous, of the sizes of ``order``'s axes in that order; its
            dtype may differ from ``x``'s.
    """
    sizes = dict(zip(('n', 'c'), x.shape[:2]))
    sizes.update(zip(('ky', 'kx'), geometry.ksize))
    sizes.update(zip(('oy', 'ox'), geometry.out_size))
    expected = tuple(sizes[axis] for axis in order)
    if out.shape != expected or not out.flags.c_contiguous:
        raise ValueError(f'im2col: out must be contiguous of shape {expected}, got '
                         f'{out.shape}')
    item = x.itemsize
    strides = [s // item for s in x.strides]
    _kernel(tuple(order))(
        x, *(sizes[axis] for axis in AXES), *x.shape[2:], *strides, *geometry.stride,
        *geometry.pad, *geometry.dilate, float(fill), out)

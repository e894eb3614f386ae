"""The windows of images copied into columns by one kernel on a GPU: padding, strides and
dilation resolved per element, so that no padded copy of the input is made."""

from __future__ import annotations

import functools

from framework import backend

#: The axes of a column element: image, channel, kernel row and column, output row and column.
AXES = ('n', 'c', 'ky', 'kx', 'oy', 'ox')


@functools.cache
def _kernel(order: tuple[str, ...], wide: bool):
    """The kernel writing columns laid out in ``order`` (a permutation of :data:`AXES`,
    outermost first), contiguous, with 64-bit index arithmetic when ``wide`` (else 32-bit,
    whose divisions are several times cheaper).

    The source is read at its logical (C-order) index, which CuPy maps through its strides."""
    cupy = backend._cupy()
    index, param = ('long long', 'int64') if wide else ('int', 'int32')
    decompose = [f'{index} t = i;']
    for axis in reversed(order[1:]):
        decompose.append(f'const {index} {axis} = t % size_{axis}; t /= size_{axis};')
    decompose.append(f'const {index} {order[0]} = t;')
    body = ' '.join(decompose) + f'''
        const {index} y = oy * sy - py + ky * dy;
        const {index} x_ = ox * sx - px + kx * dx;
        col = (y >= 0 && y < h && x_ >= 0 && x_ < w)
            ? (T)src[((n * size_c + c) * h + y) * w + x_] : (T)(float)fill;'''
    params = ', '.join(f'{param} {name}' for name in (
        'size_n', 'size_c', 'size_ky', 'size_kx', 'size_oy', 'size_ox', 'h', 'w', 'sy', 'sx',
        'py', 'px', 'dy', 'dx'))
    return cupy.ElementwiseKernel(f'raw S src, {params}, float64 fill', 'T col', body,
                                  f'im2col_{param}_' + '_'.join(order))


def im2col(x, geometry, fill, order: tuple[str, ...], out) -> None:
    """Writes the windows of images into ``out``.

    Args:
        x (cupy.ndarray): the images ``(N, C, H, W)``, any strides (a transposed
            channels-last array too).
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
    _kernel(tuple(order), max(x.size, out.size) >= 2 ** 31)(
        x, *(sizes[axis] for axis in AXES), *x.shape[2:], *geometry.stride, *geometry.pad,
        *geometry.dilate, float(fill), out)

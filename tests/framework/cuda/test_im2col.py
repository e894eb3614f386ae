"""The GPU's im2col kernel writes the windows that the array code's strided views hold, in
either layout, for any padding, stride, dilation and input strides."""

import numpy
import pytest

from framework.cuda.im2col import AXES, im2col
from framework.testing import attr
from framework.utils import conv

# ksize, stride, pad, cover_all, dilate
_WINDOWS = [((3, 3), (1, 1), (1, 1), False, (1, 1)),
            ((7, 7), (2, 2), (3, 3), False, (1, 1)),
            ((3, 2), (2, 3), (0, 1), True, (1, 1)),
            ((3, 3), (1, 2), (2, 2), False, (2, 1)),
            ((1, 1), (2, 2), (0, 0), False, (1, 1))]


@attr.gpu
@pytest.mark.parametrize('ksize, stride, pad, cover_all, dilate', _WINDOWS)
@pytest.mark.parametrize('order', [('n', 'oy', 'ox', 'ky', 'kx', 'c'),
                                   ('c', 'ky', 'kx', 'n', 'oy', 'ox')])
@pytest.mark.parametrize('dtypes', [(numpy.float32, numpy.float32),
                                    (numpy.float16, numpy.float32),
                                    (numpy.float64, numpy.float64)])
@pytest.mark.parametrize('channels_last', [False, True])
def test_the_kernel_writes_the_windows(ksize, stride, pad, cover_all, dilate, order, dtypes,
                                       channels_last):
    import cupy
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, 9, 8)).astype(dtypes[0])
    expected = conv.im2col(x, ksize, stride, pad, -5, cover_all, dilate)  # (N, C, kh, kw, ...)
    expected = expected.transpose([AXES.index(axis) for axis in order]).astype(dtypes[1])
    on_gpu = cupy.asarray(x.transpose(0, 2, 3, 1).copy()).transpose(0, 3, 1, 2) \
        if channels_last else cupy.asarray(x)
    geometry = conv.WindowGeometry.for_input(x.shape[2:], ksize, stride, pad, cover_all, dilate)
    out = cupy.empty(expected.shape, dtypes[1])
    im2col(on_gpu, geometry, -5, order, out)
    numpy.testing.assert_array_equal(out.get(), expected)


@attr.gpu
def test_an_out_of_the_wrong_shape_is_refused():
    import cupy
    geometry = conv.WindowGeometry.for_input((4, 4), (3, 3), (1, 1), (1, 1))
    with pytest.raises(ValueError, match=r'out must be contiguous of shape \(1, 2, 3, 3, 4, 4\)'):
        im2col(cupy.zeros((1, 2, 4, 4), 'f'), geometry, 0, AXES, cupy.empty((2, 1), 'f'))

import itertools

import numpy
import pytest

from framework import backend
from framework.testing import devices
from framework.utils import conv


@pytest.mark.parametrize('size, k, s, p, cover_all, d, expected', [
    (5, 3, 1, 0, False, 1, 3), (5, 3, 2, 1, False, 1, 3), (6, 3, 2, 0, False, 1, 2),
    (6, 3, 2, 0, True, 1, 3), (7, 3, 1, 2, False, 2, 7), (4, 2, 2, 0, False, 1, 2),
])
def test_get_conv_outsize(size, k, s, p, cover_all, d, expected):
    assert conv.get_conv_outsize(size, k, s, p, cover_all, d) == expected


@pytest.mark.parametrize('size, k, s, p, d', [(3, 3, 1, 0, 1), (3, 3, 2, 1, 1), (4, 2, 2, 0, 1),
                                              (5, 3, 1, 2, 2)])
def test_deconv_outsize_inverts_conv_outsize(size, k, s, p, d):
    out = conv.get_deconv_outsize(size, k, s, p, d=d)
    assert conv.get_conv_outsize(out, k, s, p, d=d) == size


def _reference_im2col(x, ksize, stride, pad, pad_value, cover_all, dilate):
    n_spatial = x.ndim - 2
    out = [conv.get_conv_outsize(x.shape[2 + i], ksize[i], stride[i], pad[i], cover_all,
                                 dilate[i]) for i in range(n_spatial)]
    padded = numpy.full(x.shape[:2] + tuple(x.shape[2 + i] + 2 * pad[i] + stride[i]
                                            for i in range(n_spatial)), pad_value, x.dtype)
    padded[(slice(None), slice(None)) + tuple(slice(p, p + s) for p, s in
                                              zip(pad, x.shape[2:]))] = x
    col = numpy.empty(x.shape[:2] + tuple(ksize) + tuple(out), x.dtype)
    for k in itertools.product(*(range(v) for v in ksize)):
        for o in itertools.product(*(range(v) for v in out)):
            src = tuple(oi * si + ki * di for oi, si, ki, di in zip(o, stride, k, dilate))
            col[(slice(None), slice(None)) + k + o] = padded[(slice(None), slice(None)) + src]
    return col


CASES = [((2, 3, 6, 7), (3, 2), (1, 2), (1, 0), False, (1, 1)),
         ((1, 2, 7, 5), (3, 3), (2, 2), (1, 1), True, (1, 1)),
         ((1, 2, 9, 8), (3, 2), (1, 1), (2, 1), False, (2, 3)),
         ((2, 2, 8), (3,), (2,), (1,), False, (1,)),
         ((1, 2, 4, 5, 6), (2, 3, 2), (1, 2, 2), (0, 1, 1), True, (1, 1, 2))]


@pytest.mark.parametrize('shape, ksize, stride, pad, cover_all, dilate', CASES)
@pytest.mark.parametrize('device', devices(), ids=str)
def test_im2col_matches_reference(shape, ksize, stride, pad, cover_all, dilate, device):
    x = numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)
    col = conv.im2col(device.send(x), ksize, stride, pad, -3.0, cover_all, dilate)
    expected = _reference_im2col(x, ksize, stride, pad, -3.0, cover_all, dilate)
    numpy.testing.assert_array_equal(backend.to_cpu(col), expected)


@pytest.mark.parametrize('shape, ksize, stride, pad, cover_all, dilate', CASES)
@pytest.mark.parametrize('device', devices(), ids=str)
def test_col2im_is_the_adjoint_of_im2col(shape, ksize, stride, pad, cover_all, dilate, device):
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, shape)
    col = conv.im2col(device.send(x), ksize, stride, pad, 0.0, cover_all, dilate)
    g = rng.uniform(-1, 1, col.shape)
    img = conv.col2im(device.send(g), stride, pad, shape[2:], dilate)
    assert img.shape == shape
    lhs = float((backend.to_cpu(col) * g).sum())
    rhs = float((x * backend.to_cpu(img)).sum())
    assert lhs == pytest.approx(rhs)


def test_im2col_takes_cover_all_per_axis():
    x = numpy.random.RandomState(2).uniform(-1, 1, (1, 2, 7, 7)).astype(numpy.float32)
    col = conv.im2col(x, (2, 2), (2, 2), (0, 0), 0, (True, False))
    assert col.shape == (1, 2, 2, 2, 4, 3)
    expected = _reference_im2col(x, (2, 2), (2, 2), (0, 0), 0, True, (1, 1))[..., :3]
    numpy.testing.assert_array_equal(col, expected)


@pytest.mark.parametrize('shape, ksize, stride, pad, cover_all, dilate', CASES)
@pytest.mark.parametrize('device', devices(), ids=str)
def test_channels_last_windows_are_im2col_transposed(shape, ksize, stride, pad, cover_all,
                                                     dilate, device):
    x = numpy.random.RandomState(3).uniform(-1, 1, shape).astype(numpy.float32)
    geometry = conv.WindowGeometry.for_input(shape[2:], ksize, stride, pad, cover_all, dilate)
    channels_last = device.send(numpy.moveaxis(x, 1, -1))
    out = device.send(numpy.empty(geometry.padded_shape(channels_last.shape, 1), x.dtype))
    padded = geometry.padded(channels_last, -3.0, 1, out)
    assert padded is out
    windows = geometry.windows(padded, 1)
    n = len(ksize)
    expected = numpy.moveaxis(_reference_im2col(x, ksize, stride, pad, -3.0, cover_all, dilate),
                              1, -1)
    numpy.testing.assert_array_equal(
        backend.to_cpu(windows),
        numpy.moveaxis(expected, tuple(range(1, 1 + n)), tuple(range(1 + n, 1 + 2 * n))))
    offset = (1,) * n
    numpy.testing.assert_array_equal(backend.to_cpu(geometry.at_offset(padded, offset, 1)),
                                     expected[(slice(None),) + offset])


@pytest.mark.parametrize('shape, ksize, stride, pad, cover_all, dilate', CASES)
def test_valid_counts_count_the_input_elements_of_each_window(shape, ksize, stride, pad,
                                                              cover_all, dilate):
    ones = numpy.ones((1, 1) + shape[2:])
    expected = _reference_im2col(ones, ksize, stride, pad, 0, cover_all, dilate)
    geometry = conv.WindowGeometry.for_input(shape[2:], ksize, stride, pad, cover_all, dilate)
    counts = geometry.valid_counts(numpy, numpy.float32)
    assert counts.dtype == numpy.float32
    kernel_axes = tuple(range(2, 2 + len(ksize)))
    numpy.testing.assert_array_equal(counts, expected.sum(axis=kernel_axes)[0, 0])


def test_the_end_padding_is_what_the_last_window_reaches():
    assert conv.WindowGeometry((5,), (3,), (2,), (2,), (1,)).end_pad == (0,)
    geometry = conv.WindowGeometry.for_input((6,), (3,), (2,), (0,), cover_all=True)
    assert geometry.out_size == (3,) and geometry.end_pad == (1,)
    assert not conv.WindowGeometry.for_input((6, 6), (3, 3), (1, 1), (0, 0)).needs_padding


def test_column_bands_only_for_columns_past_the_limit_and_not_too_thin():
    assert conv.column_band_rows(100, 10, 27, 4, 10) is None
    rows = conv.column_band_rows(10 ** 6, 1000, 9, 4, 1000)
    assert rows == conv.COLUMN_BAND_BYTES // (1000 * 9 * 4)
    assert conv.column_band_rows(10 ** 6, 1000, 10 ** 5, 4, 1000) is None
    assert conv.column_band_rows(10 ** 9, 10 ** 6, 9, 4, 7) == 1

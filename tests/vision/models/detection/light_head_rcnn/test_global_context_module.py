"""GlobalContextModule: the two separable branches, summed and rectified, and its ksize."""

from __future__ import annotations

import numpy
import pytest

import framework.functions as F
from vision.models.detection.light_head_rcnn import GlobalContextModule


def test_two_separable_branches_keep_the_size():
    module = GlobalContextModule(3, 4, 5, 7)
    x = numpy.random.RandomState(0).standard_normal((2, 3, 9, 11)).astype(numpy.float32)
    y = module(x)
    assert y.shape == (2, 5, 9, 11) and y.dtype == numpy.float32
    assert module.col_max.W.shape == (4, 3, 7, 1) and module.col.W.shape == (5, 4, 1, 7)
    assert module.row_max.W.shape == (4, 3, 1, 7) and module.row.W.shape == (5, 4, 7, 1)

    def conv(link, h, pad):
        return F.convolution_2d(h, link.W, link.b, pad=pad)

    col = conv(module.col, conv(module.col_max, x, (3, 0)), (0, 3))
    row = conv(module.row, conv(module.row_max, x, (0, 3)), (3, 0))
    numpy.testing.assert_allclose(y.array, numpy.maximum(col.array + row.array, 0),
                                  rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize('ksize', [0, 4, 2.0, True])
def test_ksize_must_be_odd(ksize):
    with pytest.raises(ValueError, match='GlobalContextModule: ksize must be an odd positive '
                                         f'int .*, but got {ksize!r}'):
        GlobalContextModule(3, 4, 5, ksize)

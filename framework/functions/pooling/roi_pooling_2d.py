"""Region-of-interest max pooling in Chainer's legacy form (Fast R-CNN's RoI pooling)."""

from __future__ import annotations

import numpy

from framework import backend
from framework.functions._inputs import float_input, positive_int
from framework.functions.pooling._roi import RoiFunction, check_batch_indices, positive_scale
from framework.functions.pooling._roi_grids import rounded_pixel_bins, scaled_coordinates
from framework.utils import type_check
from framework.variable import Variable


def _batch_indices(rois):
    """The batch index column of legacy rois, truncated to integers as Chainer's ``int()``."""
    xp = backend.get_array_module(rois)
    return xp.trunc(rois[:, 0]).astype(numpy.int64)


class ROIPooling2D(RoiFunction):
    """RoI max pooling over a set of 2-D planes; inputs ``(x, rois)`` with rois ``(R, 5)`` of
    ``(batch_index, x_min, y_min, x_max, y_max)``."""

    def __init__(self, outh: int, outw: int, spatial_scale: float):
        self.outsize = (outh, outw)
        self.spatial_scale = spatial_scale

    def pool(self, x, rois):
        xp = backend.get_array_module(x)
        coords = scaled_coordinates(rois[:, [2, 1, 4, 3]], self.spatial_scale)
        bins, in_order = rounded_pixel_bins(x.shape, coords, _batch_indices(rois),
                                            self.outsize, extra=1)
        # Chainer gives no gradient through a roi whose max rounds to before its min.
        y, taps = bins.maximum(x, self.with_taps,
                               xp.repeat(in_order, self.outsize[0] * self.outsize[1]))
        empty = bins.empty.reshape(y.shape[0], 1, *self.outsize)
        return xp.where(empty, y.dtype.type(0), y), taps


def roi_pooling_2d(x, rois, outh: int, outw: int, spatial_scale: float) -> Variable:
    """Spatial region-of-interest (RoI) max pooling, Chainer's legacy form.

    Each roi is rounded to whole pixels, ``round(coordinate * spatial_scale)`` (ties to even),
    from its min to its max pixel inclusive (at least 1 pixel), and split into ``outh x outw``
    bins, bin ``i`` covering ``[floor(i * size / outh), ceil((i + 1) * size / outh))`` from the
    start; each output element is the maximum of its bin clipped to the image, and 0 for a bin
    entirely outside. Computed for all rois and bins at once (bins padded to the largest one and
    processed in chunks of bins).

    The gradient goes to the maximum of each bin (the first one on ties); a roi whose max rounds
    to before its min gets none, as in Chainer; ``rois`` gets no gradient. Unlike Chainer's, the
    gradient is differentiable (double backprop goes through the recorded maxima).

    Args:
        x (Variable or array): the input, a float array ``(N, C, H, W)``.
        rois (Variable or array): a float array ``(R, 5)``, each row
            ``(batch_index, x_min, y_min, x_max, y_max)`` in input coordinates (note the x-first
            order, unlike the other RoI functions); the batch index is truncated to an int.
        outh (int): the height of the output.
        outw (int): the width of the output.
        spatial_scale (float): the factor from roi coordinates to x's pixels (e.g. 1/16).

    Returns:
        Variable: ``(R, C, outh, outw)`` of x's dtype.

    See Fast R-CNN <https://arxiv.org/abs/1504.08083>.
    """
    fname = 'roi_pooling_2d'
    x_array = float_input(fname, 'x', x)
    type_check.expect_ndim(fname, 'x', x_array, ndim=4)
    rois_array = float_input(fname, 'rois', rois)
    type_check.expect_shape(fname, 'rois', rois_array, (None, 5))
    check_batch_indices(fname, 'the batch indices rois[:, 0]', _batch_indices(rois_array),
                        x_array.shape)
    node = ROIPooling2D(positive_int(fname, 'outh', outh), positive_int(fname, 'outw', outw),
                        positive_scale(fname, spatial_scale))
    return node.apply((x, rois))[0]

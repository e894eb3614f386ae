"""Position-sensitive region-of-interest max align (FCIS), as ChainerCV defines it."""

from __future__ import annotations

import functools
import math

from framework.functions.pooling._position_sensitive import (
    PositionSensitiveAlign,
    apply_position_sensitive,
)
from framework.variable import Variable


class PSROIMaxAlign2D(PositionSensitiveAlign):
    """Position-sensitive RoI max align; inputs ``(x, rois, roi_indices)``."""

    reduction = 'maximum'

    def __init__(self, outsize, spatial_scale, group_size, sampling_ratio,
                 empty_value: float = -math.inf):
        super().__init__(outsize, spatial_scale, group_size, sampling_ratio)
        self.empty_value = empty_value


def ps_roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale: float,
                        group_size: int, sampling_ratio=None,
                        empty_value: float = -math.inf) -> Variable:
    """Position-sensitive region-of-interest (RoI) max align (ChainerCV's).

    The sample points are those of :func:`ps_roi_average_align_2d` (a roi is at least 0.1
    pixel high and wide). Output channel ``c`` of bin ``(i, j)`` is the maximum of the
    bilinearly interpolated points of the bin that lie within ``[-1, H] x [-1, W]``, read from
    input channel ``(c * group_size + gh) * group_size + gw``, where ``gh = i * group_size //
    outh`` and ``gw = j * group_size // outw``; ``empty_value`` where no point does
    (``-inf`` as in ChainerCV; ChainerCV's Light-Head R-CNN sets those bins to 0). Computed
    for all rois, bins and points at once (points padded to the largest grid among the rois
    and processed in chunks of bins).

    The gradient goes through the bilinear weights of the maximal point of each bin (the first
    one on ties); ``rois`` and ``roi_indices`` get none. Unlike ChainerCV's, the gradient is
    differentiable (double backprop goes through the recorded maximal points).

    Args:
        x (Variable or array): the input, a float array ``(N, C * group_size ** 2, H, W)``.
        rois (Variable or array): a float array ``(R, 4)``, each row
            ``(y_min, x_min, y_max, x_max)`` in input coordinates.
        roi_indices (Variable or array): an integer array ``(R,)``, the batch index of each roi.
        outsize (int, pair or triple of ints): the output ``(outh, outw)``, ``o`` meaning
            ``(o, o)``, or ``(C, outh, outw)`` where C must be x's channels over
            ``group_size ** 2``.
        spatial_scale (float): the factor from roi coordinates to x's pixels (e.g. 1/16).
        group_size (int): the number of position-sensitive groups along each axis.
        sampling_ratio (None, int or pair): points per bin along ``(height, width)``, each an
            int of at least 1 or None (adaptive, ``ceil(bin size)``); ``s`` means ``(s, s)``.
        empty_value (float): the output of a bin without points, which gets no gradient.

    Returns:
        Variable: ``(R, C, outh, outw)`` of x's dtype.

    See FCIS <https://arxiv.org/abs/1611.07709> and Mask R-CNN
    <https://arxiv.org/abs/1703.06870>.
    """
    empty_value = float(empty_value)
    if math.isnan(empty_value):
        raise ValueError('ps_roi_max_align_2d: empty_value must be a float or -inf, but got nan')
    node = functools.partial(PSROIMaxAlign2D, empty_value=empty_value)
    return apply_position_sensitive('ps_roi_max_align_2d', node, x, rois, roi_indices,
                                    outsize, spatial_scale, group_size, sampling_ratio)

"""What the four position-sensitive RoI functions share: their node and their arguments.

Pooling (R-FCN, FCIS) reduces the pixels of each bin, align the bilinearly interpolated points
of each bin; either takes the average or the maximum. Output channel ``c`` of bin ``(i, j)``
reads input channel ``(c * group_size + gh) * group_size + gw``, where ``gh = i * group_size
// outh`` and ``gw = j * group_size // outw``.
"""

from __future__ import annotations

import math

from framework.functions.pooling._roi import (
    RoiFunction,
    check_arrays,
    int_pair,
    position_sensitive_outsize,
    positive_scale,
)
from framework.functions.pooling._roi_grids import bilinear_samples, position_sensitive_bins
from framework.variable import Variable


class PositionSensitivePooling(RoiFunction):
    """Position-sensitive RoI pooling; inputs ``(x, rois, roi_indices)``. Subclasses name the
    reduction of a bin's samples: ``'average'`` or ``'maximum'``."""

    reduction: str

    def __init__(self, outsize: tuple[int, int], spatial_scale: float, group_size: int):
        self.outsize = outsize
        self.spatial_scale = spatial_scale
        self.group_size = group_size

    def samples(self, x_shape, rois, roi_indices):
        return position_sensitive_bins(x_shape, rois, roi_indices, self.outsize,
                                       self.spatial_scale, self.group_size)

    def pool(self, x, rois, roi_indices):
        samples = self.samples(x.shape, rois, roi_indices)
        if self.reduction == 'maximum':
            return samples.maximum(x, self.with_taps)
        return samples.average(x)


class PositionSensitiveAlign(PositionSensitivePooling):
    """Position-sensitive RoI align: the samples are bilinearly interpolated points, a roi
    being at least 0.1 pixel high and wide (ChainerCV's)."""

    #: the maximum of a bin without samples
    empty_value: float = -math.inf

    def __init__(self, outsize: tuple[int, int], spatial_scale: float, group_size: int,
                 sampling_ratio: tuple[int | None, int | None]):
        super().__init__(outsize, spatial_scale, group_size)
        self.sampling_ratio = sampling_ratio

    def samples(self, x_shape, rois, roi_indices):
        return bilinear_samples(x_shape, rois, roi_indices, self.outsize, self.spatial_scale,
                                self.sampling_ratio, min_size=0.1, group_size=self.group_size)

    def pool(self, x, rois, roi_indices):
        if self.reduction == 'maximum':
            samples = self.samples(x.shape, rois, roi_indices)
            return samples.maximum(x, self.with_taps, empty_value=self.empty_value)
        return super().pool(x, rois, roi_indices)


def apply_position_sensitive(fname: str, node_class: type, x, rois, roi_indices, outsize,
                             spatial_scale, group_size, *sampling_ratio) -> Variable:
    """Checks the arguments of a position-sensitive function and applies ``node_class``
    (``sampling_ratio`` given for align only)."""
    x_array, _, _ = check_arrays(fname, x, rois, roi_indices)
    arguments = [position_sensitive_outsize(fname, outsize, group_size, x_array.shape),
                 positive_scale(fname, spatial_scale), int(group_size)]
    arguments += [int_pair(fname, 'sampling_ratio', ratio, allow_none=True)
                  for ratio in sampling_ratio]
    return node_class(*arguments).apply((x, rois, roi_indices))[0]

"""Position-sensitive region-of-interest max pooling (FCIS), as ChainerCV defines it."""

from __future__ import annotations

from framework.functions.pooling._position_sensitive import (
    PositionSensitivePooling,
    apply_position_sensitive,
)
from framework.variable import Variable


class PSROIMaxPooling2D(PositionSensitivePooling):
    """Position-sensitive RoI max pooling; inputs ``(x, rois, roi_indices)``."""

    reduction = 'maximum'


def ps_roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale: float,
                          group_size: int) -> Variable:
    """Position-sensitive region-of-interest (RoI) max pooling (ChainerCV's).

    The bins are those of :func:`ps_roi_average_pooling_2d`; output channel ``c`` of bin
    ``(i, j)`` is the maximum of input channel ``(c * group_size + gh) * group_size + gw`` over
    the bin, where ``gh = i * group_size // outh`` and ``gw = j * group_size // outw``, and
    ``-inf`` for a bin entirely outside the image (as in ChainerCV). Computed for all rois and
    bins at once (bins padded to the largest one and processed in chunks of bins).

    The gradient goes to the maximal pixel of each bin (the first one in row-major order on
    ties); ``rois`` and ``roi_indices`` get none. Unlike ChainerCV's, the gradient is
    differentiable (double backprop goes through the recorded maximal pixels).

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

    Returns:
        Variable: ``(R, C, outh, outw)`` of x's dtype.

    See FCIS <https://arxiv.org/abs/1611.07709> and R-FCN <https://arxiv.org/abs/1605.06409>.
    """
    return apply_position_sensitive('ps_roi_max_pooling_2d', PSROIMaxPooling2D, x,
                                    rois, roi_indices, outsize, spatial_scale,
                                    group_size)

"""Position-sensitive region-of-interest average align, as ChainerCV defines it."""

from __future__ import annotations

from framework.functions.pooling._position_sensitive import (
    PositionSensitiveAlign,
    apply_position_sensitive,
)
from framework.variable import Variable


class PSROIAverageAlign2D(PositionSensitiveAlign):
    """Position-sensitive RoI average align; inputs ``(x, rois, roi_indices)``."""

    reduction = 'average'


def ps_roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale: float,
                            group_size: int, sampling_ratio=None) -> Variable:
    """Position-sensitive region-of-interest (RoI) average align (ChainerCV's).

    The sample points are those of :func:`roi_average_align_2d`, except that a roi is at least
    0.1 pixel (not 1) high and wide, as in ChainerCV. Output channel ``c`` of bin ``(i, j)``
    averages input channel ``(c * group_size + gh) * group_size + gw``, where ``gh = i *
    group_size // outh`` and ``gw = j * group_size // outw``. Computed for all rois, bins and
    points at once (points padded to the largest grid among the rois and processed in chunks of
    bins).

    The gradient scatters gy through the bilinear weights; ``rois`` and ``roi_indices`` get
    none. The gradient is itself differentiable (its gradient is this align again).

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

    Returns:
        Variable: ``(R, C, outh, outw)`` of x's dtype.

    See R-FCN <https://arxiv.org/abs/1605.06409> and Mask R-CNN
    <https://arxiv.org/abs/1703.06870>.
    """
    return apply_position_sensitive('ps_roi_average_align_2d', PSROIAverageAlign2D, x,
                                    rois, roi_indices, outsize, spatial_scale,
                                    group_size, sampling_ratio)

"""Region-of-interest average pooling with rois ``(y_min, x_min, y_max, x_max)``."""

from __future__ import annotations

from framework.functions.pooling._roi import RoiFunction, check_arrays, int_pair, positive_scale
from framework.functions.pooling._roi_grids import rounded_pixel_bins, scaled_coordinates
from framework.variable import Variable


class ROIAveragePooling2D(RoiFunction):
    """RoI average pooling over a set of 2-D planes; inputs ``(x, rois, roi_indices)``."""

    def __init__(self, outsize: tuple[int, int], spatial_scale: float):
        self.outsize = outsize
        self.spatial_scale = spatial_scale

    def pool(self, x, rois, roi_indices):
        coords = scaled_coordinates(rois, self.spatial_scale)
        bins, _ = rounded_pixel_bins(x.shape, coords, roi_indices, self.outsize, extra=0)
        return bins.average(x)


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale: float) -> Variable:
    """Spatial region-of-interest (RoI) average pooling.

    The bins are those of :func:`roi_max_pooling_2d`; each output element is the mean of its
    bin clipped to the image, and 0 for a bin entirely outside. Computed for all rois and bins at
    once (bins padded to the largest one and processed in chunks of bins).

    The gradient spreads evenly over each bin; ``rois`` and ``roi_indices`` get none. The
    gradient is itself differentiable (its gradient is this pooling again).

    Args:
        x (Variable or array): the input, a float array ``(N, C, H, W)``.
        rois (Variable or array): a float array ``(R, 4)``, each row
            ``(y_min, x_min, y_max, x_max)`` in input coordinates.
        roi_indices (Variable or array): an integer array ``(R,)``, the batch index of each roi.
        outsize (int or pair of ints): the output ``(outh, outw)``; ``o`` means ``(o, o)``.
        spatial_scale (float): the factor from roi coordinates to x's pixels (e.g. 1/16).

    Returns:
        Variable: ``(R, C, outh, outw)`` of x's dtype.

    See Fast R-CNN <https://arxiv.org/abs/1504.08083>.
    """
    fname = 'roi_average_pooling_2d'
    check_arrays(fname, x, rois, roi_indices)
    node = ROIAveragePooling2D(int_pair(fname, 'outsize', outsize),
                               positive_scale(fname, spatial_scale))
    return node.apply((x, rois, roi_indices))[0]

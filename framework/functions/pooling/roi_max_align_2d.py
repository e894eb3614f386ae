"""Region-of-interest max align: RoIAlign with the maximum of the sample points of each bin."""

from __future__ import annotations

from framework.functions.pooling._roi import RoiFunction, check_arrays, int_pair, positive_scale
from framework.functions.pooling._roi_grids import bilinear_samples
from framework.variable import Variable


class ROIMaxAlign2D(RoiFunction):
    """RoI max align over a set of 2-D planes; inputs ``(x, rois, roi_indices)``."""

    def __init__(self, outsize: tuple[int, int], spatial_scale: float,
                 sampling_ratio: tuple[int | None, int | None]):
        self.outsize = outsize
        self.spatial_scale = spatial_scale
        self.sampling_ratio = sampling_ratio

    def pool(self, x, rois, roi_indices):
        samples = bilinear_samples(x.shape, rois, roi_indices, self.outsize, self.spatial_scale,
                                   self.sampling_ratio, min_size=1.)
        return samples.maximum(x, self.with_taps)


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale: float,
                     sampling_ratio=None) -> Variable:
    """Spatial region-of-interest (RoI) max align.

    The sample points are those of :func:`roi_average_align_2d`; each output element is the
    maximum of the bilinearly interpolated points of its bin that lie within ``[-1, H] x [-1,
    W]``, and ``-inf`` where none does (as in Chainer). Computed for all rois, bins and points at
    once (points padded to the largest grid among the rois and processed in chunks of bins).

    The gradient goes through the bilinear weights of the maximal point of each bin (the first
    one on ties); ``rois`` and ``roi_indices`` get none. Unlike Chainer's, the gradient is
    differentiable (double backprop goes through the recorded maximal points).

    Args:
        x (Variable or array): the input, a float array ``(N, C, H, W)``.
        rois (Variable or array): a float array ``(R, 4)``, each row
            ``(y_min, x_min, y_max, x_max)`` in input coordinates.
        roi_indices (Variable or array): an integer array ``(R,)``, the batch index of each roi.
        outsize (int or pair of ints): the output ``(outh, outw)``; ``o`` means ``(o, o)``.
        spatial_scale (float): the factor from roi coordinates to x's pixels (e.g. 1/16).
        sampling_ratio (None, int or pair): points per bin along ``(height, width)``, each an
            int of at least 1 or None (adaptive, ``ceil(bin size)``); ``s`` means ``(s, s)``.

    Returns:
        Variable: ``(R, C, outh, outw)`` of x's dtype.

    See Mask R-CNN <https://arxiv.org/abs/1703.06870>.
    """
    fname = 'roi_max_align_2d'
    check_arrays(fname, x, rois, roi_indices)
    node = ROIMaxAlign2D(int_pair(fname, 'outsize', outsize),
                         positive_scale(fname, spatial_scale),
                         int_pair(fname, 'sampling_ratio', sampling_ratio, allow_none=True))
    return node.apply((x, rois, roi_indices))[0]

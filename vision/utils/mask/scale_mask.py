"""Scaling instance masks so that their shorter side has a given length."""

from __future__ import annotations

import numpy

from vision.utils._validation import ShapeError, as_bbox, as_masks, positive_int


def nearest_source_index(in_size: int, out_size: int) -> numpy.ndarray:
    """The input index each output index copies from, in nearest-neighbour resizing.

    The same indices as Pillow's ``Image.resize(..., NEAREST)``: output pixel ``i`` samples the
    input at ``(i + 0.5) * in_size / out_size``, accumulated step by step as Pillow does, so
    that results agree to the pixel even where the product falls on a pixel boundary.
    """
    step = in_size / out_size
    position = numpy.full(out_size, step)
    position[:1] = step / 2
    return numpy.minimum(numpy.cumsum(position).astype(numpy.int64), in_size - 1)


def scale_mask(mask: numpy.ndarray, bbox: numpy.ndarray, size: int) -> numpy.ndarray:
    """Scales instance masks so that the shorter side is ``size``, keeping the aspect ratio.

    An image of :math:`(H, W)` with :math:`H < W` becomes
    :math:`(size, \\lfloor size \\cdot W / H \\rfloor)`, else
    :math:`(\\lfloor size \\cdot H / W \\rfloor, size)`. Each output pixel copies its nearest
    input pixel, exactly as resizing the whole mask with Pillow's nearest-neighbour filter
    would (and as ``vision.transforms.resize(mask, ..., interpolation=NEAREST)`` of the whole
    mask in ChainerCV's test); only the pixels of a mask inside its box are read, the rest
    count as background. ChainerCV instead resized the crop of each box onto its scaled box,
    which shifts the sampling by up to a pixel when the scale is not an integer.

    Args:
        mask (~numpy.ndarray): A boolean array of shape :math:`(R, H, W)`.
        bbox (~numpy.ndarray): The boxes around the masked regions, shape :math:`(R, 4)`,
            each ``(y_min, x_min, y_max, x_max)``, as :func:`mask_to_bbox` computes them.
            They are widened to whole pixels (floor of the minimum, ceiling of the maximum).
        size (int): The length of the shorter side of the output.

    Returns:
        ~numpy.ndarray:
        A boolean array of shape :math:`(R, H', W')`, the scaled masks.

    Raises:
        ValueError: If an array has the wrong shape or ``size`` is not positive.
        TypeError: If an argument has the wrong type.
    """
    mask = as_masks('scale_mask', 'mask', mask)
    bbox = as_bbox('scale_mask', 'bbox', bbox)
    size = positive_int('scale_mask', 'size', size)
    R, H, W = mask.shape
    if len(bbox) != R:
        raise ShapeError(f'scale_mask: bbox must have one row per mask, (R, 4) with R = {R}, '
                         f'but got shape {bbox.shape}')
    if H == 0 or W == 0:
        raise ShapeError(f'scale_mask: mask must have a positive height and width, but got '
                         f'shape {mask.shape}')
    if H < W:
        out_H, out_W = size, int(size * W / H)
    else:
        out_H, out_W = int(size * H / W), size
    source_y = nearest_source_index(H, out_H)
    source_x = nearest_source_index(W, out_W)
    start = numpy.floor(bbox[:, :2])
    stop = numpy.ceil(bbox[:, 2:])
    inside_y = (source_y >= start[:, :1]) & (source_y < stop[:, :1])
    inside_x = (source_x >= start[:, 1:]) & (source_x < stop[:, 1:])
    out = mask[:, source_y[:, None], source_x[None]]
    out &= inside_y[:, :, None]
    out &= inside_x[:, None, :]
    return out

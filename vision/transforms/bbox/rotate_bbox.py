"""Rotating boxes with their image."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_size
from vision.transforms.image.rotate import rotated_size, rotation_cos_sin
from vision.utils._validation import as_bbox


def rotate_bbox(bbox: numpy.ndarray, angle: float, size: tuple[int, int], *,
                expand: bool = True) -> numpy.ndarray:
    """Rotates boxes as :func:`~vision.transforms.rotate` rotates their image.

    The corners of each box are rotated counter-clockwise about the centre of the image and
    placed about the centre of the rotated image; the result is the smallest upright box
    holding them. For multiples of 90 degrees that is the rotated box itself, exactly (it is
    what :func:`~vision.transforms.random_rotate` needs: ``rotate_bbox(bbox, 90 * k, (H,
    W))``). For other angles the box encloses the rotated box, and so the object, but is
    larger than it. ChainerCV 0.13 accepted multiples of 90 degrees only.

    Args:
        bbox (~numpy.ndarray): Boxes, :math:`(R, 4)`, floating point, each
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        angle (float): The counter-clockwise rotation angle in degrees.
        size (tuple of two ints): The size :math:`(H, W)` of the image before rotation.
        expand (bool): As the argument of :func:`~vision.transforms.rotate`: whether the
            rotated image was enlarged to hold the whole rotated image (default) or kept the
            size :math:`(H, W)`.

    Returns:
        ~numpy.ndarray: New boxes, :math:`(R, 4)`, of the dtype of ``bbox``, in the
        coordinates of the rotated image.
    """
    bbox = as_bbox('rotate_bbox', 'bbox', bbox, kinds='f')
    H, W = check_size('rotate_bbox', 'size', size)
    cos, sin = rotation_cos_sin(float(angle))
    out_H, out_W = rotated_size((H, W), float(angle), expand)
    # The four corners of every box, relative to the centre of the image: (R, 4) each. Float64
    # keeps quarter turns of float32 boxes exact.
    corners = bbox.astype(numpy.float64)
    y = corners[:, [0, 0, 2, 2]] - H / 2
    x = corners[:, [1, 3, 1, 3]] - W / 2
    out_y = cos * y - sin * x + out_H / 2
    out_x = sin * y + cos * x + out_W / 2
    out = numpy.stack((out_y.min(axis=1), out_x.min(axis=1),
                       out_y.max(axis=1), out_x.max(axis=1)), axis=1)
    return out.astype(bbox.dtype, copy=False)

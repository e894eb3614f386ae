"""The ten crops of test-time augmentation: centre, corners and their mirror images."""

from __future__ import annotations

import numpy

from vision.transforms._checks import check_crop_size, check_image


def ten_crop(img: numpy.ndarray, size: tuple[int, int]) -> numpy.ndarray:
    """Crops ten regions of an image: the centre and four corners, and their horizontal flips.

    The crops come in this order: centre, top-left, bottom-left, top-right, bottom-right, then
    the same five flipped horizontally. The centre crop starts at ``(H - H_out) // 2`` and
    ``(W - W_out) // 2``.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`.
        size (tuple of two ints): The size of each crop, :math:`(H_{out}, W_{out})`, at most
            :math:`(H, W)`.

    Returns:
        ~numpy.ndarray: The crops, :math:`(10, C, H_{out}, W_{out})`, of the dtype of ``img``.
    """
    _, H, W = check_image('ten_crop', img)
    out_H, out_W = check_crop_size('ten_crop', size, (H, W))
    y_center, x_center = (H - out_H) // 2, (W - out_W) // 2
    tops = (y_center, 0, H - out_H, 0, H - out_H)
    lefts = (x_center, 0, 0, W - out_W, W - out_W)
    crops = numpy.stack([img[:, y:y + out_H, x:x + out_W] for y, x in zip(tops, lefts)])
    return numpy.concatenate((crops, crops[..., ::-1]))

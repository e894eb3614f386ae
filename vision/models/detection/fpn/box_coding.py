"""The box offsets of the FPN detectors: Faster R-CNN's (:func:`loc2bbox`, :func:`bbox2loc`)
divided by deviations, with the scales clipped before the exponential as ChainerCV's FPN
clips them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy

from framework import backend
from vision.models.detection.faster_rcnn.utils.bbox2loc import bbox2loc
from vision.models.detection.faster_rcnn.utils.loc2bbox import loc2bbox

#: The largest log-scale a decoded offset keeps: a box grows at most 1000 / 16 times.
EXP_CLIP = float(numpy.log(1000 / 16))


def _std(xp, std: Sequence[float]):
    return xp.asarray((std[0], std[0], std[1], std[1]), numpy.float32)


def encode_bbox(src_bbox, dst_bbox, std: Sequence[float] = (1., 1.)):
    """The offsets from source boxes to destination boxes (:func:`bbox2loc`), the centre's
    divided by ``std[0]`` and the log-scales by ``std[1]``.

    Args:
        src_bbox (array): ``(R, 4)`` float32, ``(y_min, x_min, y_max, x_max)``.
        dst_bbox (array): ``(R, 4)`` float32.
        std (pair of float): the deviations of the centre and of the size offsets.

    Returns:
        array: ``(R, 4)`` float32, ``(t_y, t_x, t_h, t_w)``, on the boxes' device.

    Raises:
        ValueError: If the two arrays live on different devices.
    """
    xp = backend.same_device('encode_bbox', (src_bbox, dst_bbox), ('src_bbox', 'dst_bbox')).xp
    return (bbox2loc(src_bbox, dst_bbox) / _std(xp, std)).astype(numpy.float32)


def decode_bbox(src_bbox, loc, std: Sequence[float] = (1., 1.)):
    """The boxes that offsets make of source boxes (:func:`loc2bbox`): the inverse of
    :func:`encode_bbox`, the log-scales clipped at :data:`EXP_CLIP` after the deviation.

    Args:
        src_bbox (array): ``(R, 4)`` float32.
        loc (array): ``(R, 4)`` float32, ``(t_y, t_x, t_h, t_w)``.
        std (pair of float): as in :func:`encode_bbox`.

    Returns:
        array: ``(R, 4)`` float32, ``(y_min, x_min, y_max, x_max)``, on the boxes' device.

    Raises:
        ValueError: If the two arrays live on different devices.
    """
    xp = backend.same_device('decode_bbox', (src_bbox, loc), ('src_bbox', 'loc')).xp
    loc = (loc * _std(xp, std)).astype(numpy.float32)
    loc[:, 2:] = xp.minimum(loc[:, 2:], EXP_CLIP)
    return loc2bbox(src_bbox, loc)

"""Transforms of images and of the boxes and points that go with them (ChainerCV's
``chainercv.transforms``).

Images are ``(C, H, W)`` arrays, boxes ``(R, 4)`` arrays of ``(y_min, x_min, y_max, x_max)``
and points ``(R, K, 2)`` arrays (or lists of ``(K, 2)`` arrays) of ``(y, x)``, with the edges
of pixels at integer coordinates. The random transforms take a keyword-only
``rng`` (:class:`numpy.random.Generator`) and return what they drew with
``return_param=True``, so that boxes, masks and points can follow the image.
"""

from vision.transforms.bbox.crop_bbox import crop_bbox
from vision.transforms.bbox.flip_bbox import flip_bbox
from vision.transforms.bbox.resize_bbox import resize_bbox
from vision.transforms.bbox.rotate_bbox import rotate_bbox
from vision.transforms.bbox.translate_bbox import translate_bbox
from vision.transforms.image.center_crop import center_crop
from vision.transforms.image.flip import flip
from vision.transforms.image.pca_lighting import pca_lighting
from vision.transforms.image.random_crop import random_crop
from vision.transforms.image.random_crop_with_bbox_constraints import (
    random_crop_with_bbox_constraints,
)
from vision.transforms.image.random_distort import random_distort
from vision.transforms.image.random_expand import random_expand
from vision.transforms.image.random_flip import random_flip
from vision.transforms.image.random_rotate import random_rotate
from vision.transforms.image.random_sized_crop import random_sized_crop
from vision.transforms.image.resize import resize
from vision.transforms.image.resize_contain import resize_contain
from vision.transforms.image.resize_with_random_interpolation import (
    resize_with_random_interpolation,
)
from vision.transforms.image.rotate import rotate
from vision.transforms.image.scale import scale
from vision.transforms.image.ten_crop import ten_crop
from vision.transforms.point.flip_point import flip_point
from vision.transforms.point.resize_point import resize_point
from vision.transforms.point.translate_point import translate_point

__all__ = [
    'center_crop', 'crop_bbox', 'flip', 'flip_bbox', 'flip_point', 'pca_lighting',
    'random_crop', 'random_crop_with_bbox_constraints', 'random_distort', 'random_expand',
    'random_flip', 'random_rotate', 'random_sized_crop', 'resize', 'resize_bbox',
    'resize_contain', 'resize_point', 'resize_with_random_interpolation', 'rotate',
    'rotate_bbox', 'scale', 'ten_crop', 'translate_bbox', 'translate_point',
]

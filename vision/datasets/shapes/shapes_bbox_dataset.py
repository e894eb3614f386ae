"""ShapesBboxDataset: synthetic detection data."""

from __future__ import annotations

import numpy

from vision.datasets.shapes.shapes_utils import ShapesBaseDataset
from vision.utils import mask_to_bbox


class ShapesBboxDataset(ShapesBaseDataset):
    """A synthetic bounding box dataset: circles, squares, triangles and stars.

    Each image shows ``n_shape`` shapes of random class, colour, size, position and rotation,
    overlapping, on a grey textured background. The boxes are exact: each is the box of the
    pixels its shape shows (:func:`~vision.utils.mask_to_bbox` of its mask). A shape of which
    less than 30 % is visible is dropped and its pixels are background. The examples are
    made when read, deterministically from ``seed`` and the index.

    Args:
        length (int): The number of examples.
        size (int or tuple of int): The image size ``(H, W)``, or one number for both.
        seed (int): The seed of the dataset.
        n_shape (tuple of int): The least and the most shapes drawn in an image.
        shape_size (tuple of float): The range of a shape's circumradius, as a fraction of
            ``min(H, W)`` (at least 2.5 pixels).

    This dataset returns the following data.

    ========= ========= ======= ==================================
    name      shape     dtype   format
    ========= ========= ======= ==================================
    ``img``   (3, H, W) float32 RGB, [0, 255]
    ``bbox``  (R, 4)    float32 (y_min, x_min, y_max, x_max)
    ``label`` (R,)      int32   [0, #fg_class - 1]
    ========= ========= ======= ==================================

    The label of :math:`l` is the :math:`l`-th name of :data:`shapes_label_names`. The
    boxes are in drawing order, back to front.

    """

    def __init__(self, length: int = 100, size: int | tuple[int, int] = 128, seed: int = 0,
                 n_shape: tuple[int, int] = (1, 5),
                 shape_size: tuple[float, float] = (0.1, 0.3)) -> None:
        super().__init__('ShapesBboxDataset', length, size, seed, n_shape, shape_size,
                         inside=False, min_visible=0.3)
        self.add_getter(('bbox', 'label'), self._get_annotations)

    def _get_annotations(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        return mask_to_bbox(self._get_masks(i)), self.scene(i).label

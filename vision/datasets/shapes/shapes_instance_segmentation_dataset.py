"""ShapesInstanceSegmentationDataset: synthetic instance segmentation data."""

from __future__ import annotations

import numpy

from vision.datasets.shapes.shapes_utils import ShapesBaseDataset


class ShapesInstanceSegmentationDataset(ShapesBaseDataset):
    """A synthetic instance segmentation dataset: circles, squares, triangles and stars.

    The scenes of :class:`ShapesBboxDataset` (the same for the same arguments); the masks are
    exact: a mask holds the pixels that its shape shows, so the masks of an image are disjoint.

    Args:
        length (int): The number of examples.
        size (int or tuple of int): The image size ``(H, W)``, or one number for both.
        seed (int): The seed of the dataset.
        n_shape (tuple of int): The least and the most shapes drawn in an image.
        shape_size (tuple of float): The range of a shape's circumradius, as a fraction of
            ``min(H, W)`` (at least 2.5 pixels).

    This dataset returns the following data.

    ========= ========= ======= ====================
    name      shape     dtype   format
    ========= ========= ======= ====================
    ``img``   (3, H, W) float32 RGB, [0, 255]
    ``mask``  (R, H, W) bool    --
    ``label`` (R,)      int32   [0, #fg_class - 1]
    ========= ========= ======= ====================

    The label of :math:`l` is the :math:`l`-th name of :data:`shapes_label_names`.

    """

    def __init__(self, length: int = 100, size: int | tuple[int, int] = 128, seed: int = 0,
                 n_shape: tuple[int, int] = (1, 5),
                 shape_size: tuple[float, float] = (0.1, 0.3)) -> None:
        super().__init__('ShapesInstanceSegmentationDataset', length, size, seed, n_shape,
                         shape_size, inside=False, min_visible=0.3)
        self.add_getter(('mask', 'label'), self._get_annotations)

    def _get_annotations(self, i: int) -> tuple[numpy.ndarray, numpy.ndarray]:
        return self._get_masks(i), self.scene(i).label

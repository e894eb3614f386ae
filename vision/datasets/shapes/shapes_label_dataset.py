"""ShapesLabelDataset: synthetic classification data."""

from __future__ import annotations

import numpy

from vision.datasets.shapes.shapes_utils import ShapesBaseDataset


class ShapesLabelDataset(ShapesBaseDataset):
    """A synthetic classification dataset: one circle, square, triangle or star per image.

    Each image shows one shape of random class, colour, size, position and rotation, whole,
    on a grey textured background; the label is its class. The examples are made when read,
    deterministically from ``seed`` and the index.

    Args:
        length (int): The number of examples.
        size (int or tuple of int): The image size ``(H, W)``, or one number for both.
        seed (int): The seed of the dataset.
        shape_size (tuple of float): The range of the shape's circumradius, as a fraction of
            ``min(H, W)`` (at least 2.5 pixels).

    This dataset returns the following data.

    ========= ========= ======= ====================
    name      shape     dtype   format
    ========= ========= ======= ====================
    ``img``   (3, H, W) float32 RGB, [0, 255]
    ``label`` ()        int32   [0, #class - 1]
    ========= ========= ======= ====================

    The label of :math:`l` is the :math:`l`-th name of :data:`shapes_label_names`.

    """

    def __init__(self, length: int = 100, size: int | tuple[int, int] = 64, seed: int = 0,
                 shape_size: tuple[float, float] = (0.2, 0.45)) -> None:
        super().__init__('ShapesLabelDataset', length, size, seed, (1, 1), shape_size,
                         inside=True, min_visible=0.0)
        self.add_getter('label', self._get_label)

    def _get_label(self, i: int) -> numpy.int32:
        return numpy.int32(self.scene(i).label[0])

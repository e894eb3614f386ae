"""The synthetic shapes datasets: label names and the base class."""

from __future__ import annotations

import numbers

import numpy

from framework.datasets import GetterDataset
from vision.datasets.shapes import _scene

shapes_label_names = _scene.label_names
shapes_semantic_segmentation_label_names = ('background',) + shapes_label_names


def _check_range(fname: str, name: str, value, kind: type, low: float) -> tuple:
    if not (isinstance(value, tuple | list) and len(value) == 2 and all(
            isinstance(v, kind) and not isinstance(v, bool) for v in value)):
        raise TypeError(f'{fname}: {name} must be a pair (min, max) of '
                        f'{"integers" if kind is numbers.Integral else "numbers"}, but got '
                        f'{value!r}')
    if not low <= value[0] <= value[1]:
        raise ValueError(f'{fname}: {name} must satisfy {low} <= min <= max, but got '
                         f'{tuple(value)}')
    return tuple(value)


class ShapesBaseDataset(GetterDataset):
    """The common part of the shapes datasets: arguments, scenes and the ``img`` getter.

    Example ``i`` is drawn from ``numpy.random.SeedSequence((seed, i))``, so it is the same at
    every access, in every process, whatever was read before. The geometry of the last example
    read is kept, so that reading its image and its annotations draws it once.

    Args:
        fname (str): The public name, for error messages.
        length (int): The number of examples.
        size (int or tuple of int): The image size, ``(H, W)`` or one number for both.
        seed (int): The seed of the whole dataset.
        n_shape (tuple of int): The least and the most shapes drawn in an image (inclusive).
        shape_size (tuple of float): The range of a shape's circumradius, as a fraction of
            ``min(H, W)``.
        inside (bool): Keep every shape whole inside the image.
        min_visible (float): A shape partly hidden by the shapes drawn over it is kept only if
            at least this fraction of it is visible; the pixels of a dropped shape are
            background.

    """

    def __init__(self, fname: str, length: int, size: int | tuple[int, int], seed: int,
                 n_shape: tuple[int, int], shape_size: tuple[float, float], inside: bool,
                 min_visible: float) -> None:
        super().__init__()
        if not isinstance(length, numbers.Integral) or isinstance(length, bool) or length < 0:
            raise ValueError(f'{fname}: length must be a non-negative integer, but got '
                             f'{length!r}')
        if isinstance(size, numbers.Integral) and not isinstance(size, bool):
            size = (size, size)
        if not (isinstance(size, tuple | list) and len(size) == 2 and all(
                isinstance(s, numbers.Integral) and not isinstance(s, bool) and s > 0
                for s in size)):
            raise ValueError(f'{fname}: size must be a positive integer or a pair (H, W) of '
                             f'them, but got {size!r}')
        if not isinstance(seed, numbers.Integral) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f'{fname}: seed must be a non-negative integer, but got {seed!r}')
        self._fname = fname
        self._length = int(length)
        self.size = (int(size[0]), int(size[1]))
        self.seed = int(seed)
        self.n_shape = _check_range(fname, 'n_shape', n_shape, numbers.Integral, 0)
        self.shape_size = _check_range(fname, 'shape_size', shape_size, numbers.Real, 0)
        self._inside = inside
        self._min_visible = min_visible
        self._last: tuple[int, _scene.Scene] | None = None
        self.add_getter('img', self._get_image)

    def __len__(self) -> int:
        return self._length

    def _streams(self, i: int) -> list[numpy.random.SeedSequence]:
        return numpy.random.SeedSequence((self.seed, i)).spawn(2)

    def scene(self, i: int) -> _scene.Scene:
        """The geometry of example ``i``: owner map, classes and colours of its shapes."""
        last = self._last
        if last is not None and last[0] == i:
            return last[1]
        scene = _scene.make_scene(self._streams(i)[0], *self.size, self.n_shape,
                                  self.shape_size, self._inside, self._min_visible)
        self._last = (i, scene)
        return scene

    def _get_image(self, i: int) -> numpy.ndarray:
        background = _scene.make_background(self._streams(i)[1], *self.size)
        return _scene.render(self.scene(i), background)

    def _get_masks(self, i: int) -> numpy.ndarray:
        scene = self.scene(i)
        index = numpy.arange(len(scene.label), dtype=numpy.int32)
        return scene.owner[None] == index[:, None, None]

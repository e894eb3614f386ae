"""Scenes of flat-coloured shapes on a grey textured background, rasterised exactly.

A scene is drawn back to front. A pixel belongs to the last shape whose outline contains its
centre :math:`(y + 0.5, x + 0.5)`, so the masks of a scene are disjoint and the image is, pixel
for pixel, the colour of the shape that owns it or the background. Shapes whose visible part is
too small a fraction of them are dropped, their pixels given back to the background, so every
kept shape is recognisable. Shape colours are saturated (no two channels close) and the
background is grey (three equal channels), so an image's pixels tell exactly which are objects.

Every number comes from ``numpy.random.SeedSequence((seed, index))``: the geometry from one
child stream, the background texture from another, so the annotations of an example are
computed without drawing its texture.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy

label_names = ('circle', 'square', 'triangle', 'star')
_CIRCLE, _SQUARE, _TRIANGLE, _STAR = range(4)
_STAR_INNER = 0.5  # the inner radius of a star, as a fraction of its outer radius
# The least circumradius in pixels: every shape then contains the disc of radius 1 around its
# centre, hence the centre of at least one pixel wherever it lies in the image.
_MIN_RADIUS = 2.5
# Saturated colours: in each, two channels differ by at least 150, so no shade of one is grey.
palette = numpy.array([
    (220, 40, 40), (40, 190, 60), (50, 80, 230), (235, 205, 25), (205, 50, 205),
    (30, 195, 210), (245, 135, 20), (125, 45, 200)], dtype=numpy.float32)
_SHADE = (0.75, 1.0)  # a shape's colour is a palette colour times a factor drawn here
_GREY = (60.0, 190.0)  # the range of the background's mean level


class Scene(NamedTuple):
    """The geometry of one example.

    Attributes:
        owner (~numpy.ndarray): int32 :math:`(H, W)`: the index of the shape that owns each
            pixel, -1 for the background.
        label (~numpy.ndarray): int32 :math:`(R,)`: the class of each shape, an index of
            :data:`label_names`, in drawing order (back to front).
        color (~numpy.ndarray): float32 :math:`(R, 3)`: the RGB colour of each shape.

    """

    owner: numpy.ndarray
    label: numpy.ndarray
    color: numpy.ndarray


def _polygon(n_vertex: int, radius: float, angle: float, center: numpy.ndarray,
             inner: float | None = None) -> numpy.ndarray:
    """The ``(y, x)`` vertices of a regular polygon, or of a star when ``inner`` is given."""
    n_point = 2 * n_vertex if inner is not None else n_vertex
    theta = angle + 2 * numpy.pi * numpy.arange(n_point) / n_point
    r = numpy.full(n_point, radius)
    if inner is not None:
        r[1::2] *= inner
    return numpy.stack([center[0] + r * numpy.sin(theta), center[1] + r * numpy.cos(theta)],
                       axis=1)


def polygon_contains(vertices: numpy.ndarray, y: numpy.ndarray, x: numpy.ndarray
                     ) -> numpy.ndarray:
    """Whether the points ``(y, x)`` are inside a polygon (even-odd rule), vectorised over the
    points with one pass per edge.

    Args:
        vertices (~numpy.ndarray): :math:`(N, 2)`, the ``(y, x)`` of each vertex in order.
        y, x (~numpy.ndarray): Coordinates of the points; they broadcast together.

    Returns:
        ~numpy.ndarray: bool, the broadcast shape of ``y`` and ``x``.

    """
    inside = numpy.zeros(numpy.broadcast_shapes(y.shape, x.shape), dtype=bool)
    for (y0, x0), (y1, x1) in zip(vertices, numpy.roll(vertices, -1, axis=0)):
        if y0 == y1:
            continue
        crosses = (y0 > y) != (y1 > y)
        x_cross = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        inside ^= crosses & (x < x_cross)
    return inside


def shape_contains(kind: int, center: numpy.ndarray, radius: float, angle: float,
                   y: numpy.ndarray, x: numpy.ndarray) -> numpy.ndarray:
    """Whether the points ``(y, x)`` are inside a shape of circumradius ``radius``.

    Args:
        kind (int): The class: 0 circle, 1 square, 2 triangle, 3 star (five points).
        center (~numpy.ndarray): ``(y, x)`` of the centre.
        radius (float): The distance from the centre to the corners (the outer points of a
            star, the outline of a circle).
        angle (float): The rotation in radians.
        y, x (~numpy.ndarray): Coordinates of the points; they broadcast together.

    Returns:
        ~numpy.ndarray: bool, the broadcast shape of ``y`` and ``x``.

    """
    if kind == _CIRCLE:
        return (y - center[0]) ** 2 + (x - center[1]) ** 2 <= radius ** 2
    if kind == _SQUARE:
        return polygon_contains(_polygon(4, radius, angle, center), y, x)
    if kind == _TRIANGLE:
        return polygon_contains(_polygon(3, radius, angle, center), y, x)
    return polygon_contains(_polygon(5, radius, angle, center, _STAR_INNER), y, x)


def _window(center: numpy.ndarray, radius: float, height: int, width: int
            ) -> tuple[slice, slice]:
    """The pixels that a shape of circumradius ``radius`` around ``center`` may cover."""
    y0, x0 = (max(0, math.floor(c - radius)) for c in center)
    y1 = min(height, math.ceil(center[0] + radius) + 1)
    x1 = min(width, math.ceil(center[1] + radius) + 1)
    return slice(y0, max(y0, y1)), slice(x0, max(x0, x1))


def make_scene(seed_sequence: numpy.random.SeedSequence, height: int, width: int,
               n_shape: tuple[int, int], radius: tuple[float, float], inside: bool,
               min_visible: float) -> Scene:
    """Draws the geometry of one scene.

    Args:
        seed_sequence: The stream of the geometry.
        height, width (int): The image size.
        n_shape (tuple of int): The least and the most shapes drawn (inclusive).
        radius (tuple of float): The range of the circumradius, as fractions of
            ``min(height, width)``.
        inside (bool): Keep every shape whole inside the image.
        min_visible (float): A shape is kept only if at least this fraction of its pixels in
            the image is visible.

    Returns:
        Scene: The owner map, classes and colours of the kept shapes.

    """
    rng = numpy.random.default_rng(seed_sequence)
    count = int(rng.integers(n_shape[0], n_shape[1] + 1))
    kinds = rng.integers(0, len(label_names), count)
    radii = numpy.maximum(rng.uniform(*radius, count) * min(height, width), _MIN_RADIUS)
    angles = rng.uniform(0, 2 * numpy.pi, count)
    margin = radii[:, None] if inside else numpy.zeros((count, 1))
    low = numpy.minimum(margin, numpy.array([height, width]) / 2)
    centers = low + rng.uniform(0, 1, (count, 2)) * (numpy.array([height, width]) - 2 * low)
    colors = palette[rng.permutation(len(palette))[numpy.arange(count) % len(palette)]]
    colors = numpy.rint(colors * rng.uniform(*_SHADE, (count, 1))).astype(numpy.float32)

    owner = numpy.full((height, width), -1, dtype=numpy.int32)
    full_area = numpy.zeros(count, dtype=numpy.int64)
    for k in range(count):
        rows, cols = _window(centers[k], radii[k], height, width)
        y = numpy.arange(rows.start, rows.stop)[:, None] + 0.5
        x = numpy.arange(cols.start, cols.stop)[None, :] + 0.5
        covered = shape_contains(int(kinds[k]), centers[k], float(radii[k]), float(angles[k]),
                                 y, x)
        owner[rows, cols][covered] = k
        full_area[k] = numpy.count_nonzero(covered)
    visible = numpy.bincount(owner.ravel() + 1, minlength=count + 1)[1:]
    kept = (visible > 0) & (visible >= min_visible * full_area)
    new_index = numpy.full(count + 1, -1, dtype=numpy.int32)
    new_index[1:][kept] = numpy.arange(numpy.count_nonzero(kept))
    return Scene(new_index[owner + 1], kinds[kept].astype(numpy.int32), colors[kept])


def make_background(seed_sequence: numpy.random.SeedSequence, height: int, width: int
                    ) -> numpy.ndarray:
    """Draws a grey texture: a mean level, three sinusoidal gratings of random orientation and
    frequency, and pixel noise.

    Returns:
        ~numpy.ndarray: float32 :math:`(H, W)`, integers in :math:`[0, 255]`.

    """
    rng = numpy.random.default_rng(seed_sequence)
    y = numpy.arange(height, dtype=numpy.float64)[:, None]
    x = numpy.arange(width, dtype=numpy.float64)[None, :]
    level = rng.uniform(*_GREY)
    angle = rng.uniform(0, numpy.pi, 3)
    period = rng.uniform(4, 32, 3)
    phase = rng.uniform(0, 2 * numpy.pi, 3)
    amplitude = rng.uniform(5, 20, 3)
    texture = numpy.full((height, width), level)
    for a, p, f, m in zip(angle, period, phase, amplitude):
        texture += m * numpy.sin(2 * numpy.pi * (y * numpy.sin(a) + x * numpy.cos(a)) / p + f)
    texture += rng.normal(0, 6, (height, width))
    return numpy.rint(texture.clip(0, 255)).astype(numpy.float32)


def render(scene: Scene, background: numpy.ndarray) -> numpy.ndarray:
    """Paints the shapes of ``scene`` over a grey ``background``.

    Returns:
        ~numpy.ndarray: float32 :math:`(3, H, W)`, RGB in :math:`[0, 255]`.

    """
    img = numpy.repeat(background[None], 3, axis=0)
    shape_pixels = scene.owner >= 0
    img[:, shape_pixels] = scene.color[scene.owner[shape_pixels]].T
    return img

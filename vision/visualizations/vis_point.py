"""Drawing keypoints with matplotlib."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy

from vision.visualizations.vis_image import vis_image

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def vis_point(img: numpy.ndarray | None, point: numpy.ndarray | Sequence[numpy.ndarray],
              visible: numpy.ndarray | Sequence[numpy.ndarray] | None = None,
              ax: Axes | None = None) -> Axes:
    """Shows the keypoints of instances on an image.

    The :math:`k`-th point of every instance has the :math:`k`-th colour of matplotlib's
    ``gist_rainbow`` colour map, so that the same part has the same colour everywhere.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(3, H, W)`, RGB in :math:`[0, 255]`.
            If :obj:`None`, no image is shown.
        point (~numpy.ndarray or list of arrays): Points of shape :math:`(R, K, 2)` (or a list
            of :math:`R` arrays of shape :math:`(K, 2)`), each :math:`(y, x)`.
        visible (~numpy.ndarray or list of arrays): Of shape :math:`(R, K)`, bool; only the
            visible points are drawn. If :obj:`None`, all are.
        ax (matplotlib.axes.Axes): The axes to draw on. If :obj:`None` (default), a new one is
            created.

    Returns:
        matplotlib.axes.Axes: The axes, for further drawing. With an image, the view is
        limited to the image.
    """
    import matplotlib

    if visible is not None and len(visible) != len(point):
        raise ValueError(f'vis_point: visible must have one entry per instance '
                         f'({len(point)}), but got {len(visible)}')
    ax = vis_image(img, ax=ax)
    cmap = matplotlib.colormaps['gist_rainbow']
    for i, pnt in enumerate(point):
        pnt = numpy.asarray(pnt).reshape(-1, 2)
        shown = numpy.ones(len(pnt), dtype=bool) if visible is None else \
            numpy.asarray(visible[i], dtype=bool)
        if shown.shape != (len(pnt),):
            raise ValueError(f'vis_point: visible[{i}] must have shape ({len(pnt)},), but '
                             f'got shape {shown.shape}')
        colors = cmap(numpy.arange(len(pnt)) / max(len(pnt), 1))
        ax.scatter(pnt[shown, 1], pnt[shown, 0], c=colors[shown], s=100)
    if img is not None:
        _, H, W = numpy.shape(img)
        ax.set_xlim(-0.5, W - 0.5)
        ax.set_ylim(H - 0.5, -0.5)
    return ax

"""Drawing bounding boxes with matplotlib."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy

from vision.utils._validation import as_bbox
from vision.visualizations._instances import (
    caption,
    check_instances,
    drawing_order,
    per_instance_colors,
)
from vision.visualizations.vis_image import vis_image

if TYPE_CHECKING:
    from matplotlib.axes import Axes


_RED = ((255, 0, 0),)


def vis_bbox(img: numpy.ndarray | None, bbox: numpy.ndarray, label: numpy.ndarray | None = None,
             score: numpy.ndarray | None = None, label_names: Sequence[str] | None = None,
             instance_colors: Sequence | numpy.ndarray | None = None, alpha: float = 1.,
             linewidth: float = 3., sort_by_score: bool = True,
             ax: Axes | None = None) -> Axes:
    """Shows bounding boxes, with their label names and scores, on an image.

    Example:
        >>> ax = vis_bbox(img, bbox, label, score, label_names=voc_bbox_label_names,
        ...               instance_colors=voc_colormap(label + 1))
        >>> ax.figure.savefig('out.png')

    Args:
        img (~numpy.ndarray): An image of shape :math:`(3, H, W)`, RGB in :math:`[0, 255]`.
            If :obj:`None`, no image is shown.
        bbox (~numpy.ndarray): Boxes of shape :math:`(R, 4)`, each
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})`.
        label (~numpy.ndarray): Class ids of shape :math:`(R,)` in
            :math:`[0, \\#fg\\_class - 1]`. Optional.
        score (~numpy.ndarray): Scores of shape :math:`(R,)`. Optional; shown with two
            decimals.
        label_names (sequence of str): Names indexed by class id. Without them, no names are
            shown.
        instance_colors (sequence of RGB triples): Colours in :math:`[0, 255]`; the
            :math:`i`-th is used for the :math:`i`-th box, cyclically if fewer are given.
            If :obj:`None`, every box is red.
        alpha (float): The opacity of the box edges, in :math:`[0, 1]`.
        linewidth (float): The width of the box edges, in points.
        sort_by_score (bool): If :obj:`True` and ``score`` is given, boxes with higher scores
            are drawn in front of boxes with lower ones.
        ax (matplotlib.axes.Axes): The axes to draw on. If :obj:`None` (default), a new one is
            created.

    Returns:
        matplotlib.axes.Axes: The axes, for further drawing.

    Raises:
        ValueError: ``label`` or ``score`` does not have one entry per box, or a label does not
            index ``label_names``.
    """
    from matplotlib.patches import Rectangle

    bbox = as_bbox('vis_bbox', 'bbox', bbox)
    check_instances('vis_bbox', len(bbox), label, score, label_names)
    colors = per_instance_colors(
        'vis_bbox', _RED if instance_colors is None else instance_colors, len(bbox)) / 255
    ax = vis_image(img, ax=ax)
    for i in drawing_order(score, sort_by_score, len(bbox)):
        y_min, x_min, y_max, x_max = bbox[i]
        ax.add_patch(Rectangle((x_min, y_min), x_max - x_min, y_max - y_min, fill=False,
                               edgecolor=colors[i], linewidth=linewidth, alpha=alpha))
        text = caption(i, label, score, label_names)
        if text:
            ax.text(x_min, y_min, text, style='italic',
                    bbox={'facecolor': 'white', 'alpha': 0.7, 'pad': 10})
    return ax


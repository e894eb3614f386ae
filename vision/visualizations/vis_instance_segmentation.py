"""Drawing instance masks with matplotlib."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy

from vision.visualizations._instances import (
    caption,
    check_instances,
    drawing_order,
    per_instance_colors,
)
from vision.visualizations.colormap import voc_colormap
from vision.visualizations.vis_image import vis_image

if TYPE_CHECKING:
    from matplotlib.axes import Axes


def _instance_canvas(mask: numpy.ndarray, colors: numpy.ndarray, alpha: float,
                    order: numpy.ndarray) -> numpy.ndarray:
    """Paints masks into an RGBA image; where masks overlap, the one latest in ``order`` wins.

    Args:
        mask (~numpy.ndarray): :math:`(R, H, W)` bool.
        colors (~numpy.ndarray): :math:`(R, 3)` RGB in :math:`[0, 255]`.
        alpha (float): The opacity of the painted pixels, in :math:`[0, 1]`.
        order (~numpy.ndarray): The drawing order, a permutation of :math:`R`.

    Returns:
        ~numpy.ndarray: :math:`(H, W, 4)` uint8, transparent where no mask is.
    """
    _, H, W = mask.shape
    canvas = numpy.zeros((H, W, 4), dtype=numpy.uint8)
    if len(order) == 0:
        return canvas
    stacked = mask[order]
    covered = stacked.any(axis=0)
    # The last instance in drawing order covering each pixel: the first in reversed order.
    front = len(order) - 1 - stacked[::-1].argmax(axis=0)
    rgba = numpy.concatenate(
        [colors[order], numpy.full((len(order), 1), alpha * 255)], axis=1)
    canvas[covered] = numpy.rint(rgba).astype(numpy.uint8)[front[covered]]
    return canvas


def vis_instance_segmentation(
        img: numpy.ndarray | None, mask: numpy.ndarray, label: numpy.ndarray | None = None,
        score: numpy.ndarray | None = None, label_names: Sequence[str] | None = None,
        instance_colors: Sequence | numpy.ndarray | None = None, alpha: float = 0.7,
        sort_by_score: bool = True, ax: Axes | None = None) -> Axes:
    """Shows instance masks, with their label names and scores, on an image.

    Each mask is painted in its colour; a caption with the label name and the score is put
    at the top centre of the mask's bounding box.

    Example:
        >>> ax = vis_instance_segmentation(img, mask, label, score,
        ...                                label_names=coco_instance_segmentation_label_names)
        >>> ax.figure.savefig('out.png')

    Args:
        img (~numpy.ndarray): An image of shape :math:`(3, H, W)`, RGB in :math:`[0, 255]`.
            If :obj:`None`, no image is shown.
        mask (~numpy.ndarray): Masks of shape :math:`(R, H, W)`, bool.
        label (~numpy.ndarray): Class ids of shape :math:`(R,)` in
            :math:`[0, \\#fg\\_class - 1]`. Optional.
        score (~numpy.ndarray): Scores of shape :math:`(R,)`. Optional.
        label_names (sequence of str): Names indexed by class id. Without them, no names are
            shown.
        instance_colors (sequence of RGB triples): Colours in :math:`[0, 255]`; the
            :math:`i`-th is used for the :math:`i`-th instance, cyclically if fewer are
            given. If :obj:`None`, ``voc_colormap(range(1, R + 1))`` is used.
        alpha (float): The opacity of the masks and captions, in :math:`[0, 1]`. The default
            is 0.7.
        sort_by_score (bool): If :obj:`True` and ``score`` is given, instances with higher
            scores are drawn in front of instances with lower ones.
        ax (matplotlib.axes.Axes): The axes to draw on. If :obj:`None` (default), a new one is
            created.

    Returns:
        matplotlib.axes.Axes: The axes, for further drawing.

    Raises:
        ValueError: ``mask`` is not 3-dimensional, ``label`` or ``score`` does not have one
            entry per mask, or a label does not index ``label_names``.
    """
    mask = numpy.asarray(mask, dtype=bool)
    if mask.ndim != 3:
        raise ValueError(f'vis_instance_segmentation: mask must have shape (R, H, W), but got '
                         f'shape {mask.shape}')
    n_inst = len(mask)
    check_instances('vis_instance_segmentation', n_inst, label, score, label_names)
    if instance_colors is None:
        instance_colors = voc_colormap(range(1, n_inst + 1)) if n_inst else ((0, 0, 0),)
    colors = per_instance_colors('vis_instance_segmentation', instance_colors, n_inst)
    order = drawing_order(score, sort_by_score, n_inst)

    ax = vis_image(img, ax=ax)
    rows, cols = mask.any(axis=2), mask.any(axis=1)
    y_min = rows.argmax(axis=1)
    x_center = (cols.argmax(axis=1) + mask.shape[2] - cols[:, ::-1].argmax(axis=1)) / 2
    for i in order:
        text = caption(i, label, score, label_names)
        if text and rows[i].any():
            ax.text(x_center[i], y_min[i], text, style='italic', fontsize=8, color='white',
                    bbox={'facecolor': colors[i] / 255, 'alpha': alpha})
    ax.imshow(_instance_canvas(mask, colors, alpha, order))
    return ax

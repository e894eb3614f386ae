"""Drawing a semantic segmentation with matplotlib."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy

from vision.visualizations.colormap import voc_colormap
from vision.visualizations.vis_image import vis_image

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.patches import Patch


def vis_semantic_segmentation(
        img: numpy.ndarray | None, label: numpy.ndarray,
        label_names: Sequence[str] | None = None,
        label_colors: Sequence | numpy.ndarray | None = None,
        ignore_label_color: Sequence[float] = (0, 0, 0), alpha: float = 1,
        all_label_names_in_legend: bool = False,
        ax: Axes | None = None) -> tuple[Axes, list[Patch]]:
    """Shows a semantic segmentation, on an image or alone, and makes legend entries for it.

    Example:
        >>> ax, legend_handles = vis_semantic_segmentation(
        ...     img, label, label_names=voc_semantic_segmentation_label_names, alpha=0.9)
        >>> ax.legend(handles=legend_handles, bbox_to_anchor=(1, 1), loc=2)
        >>> ax.figure.savefig('out.png')

    Args:
        img (~numpy.ndarray): An image of shape :math:`(3, H, W)`, RGB in :math:`[0, 255]`.
            If :obj:`None`, no image is shown.
        label (~numpy.ndarray): A label map of shape :math:`(H, W)`, int. Negative values
            (``-1``) mark ignored pixels.
        label_names (sequence of str): Names indexed by class id. It sets the number of
            classes; if :obj:`None`, the ids are the names.
        label_colors (sequence of RGB triples): One colour in :math:`[0, 255]` per class. It
            sets the number of classes when ``label_names`` is :obj:`None`. If :obj:`None`,
            ``voc_colormap(range(n_class))`` is used.
        ignore_label_color (tuple): The RGB colour in :math:`[0, 255]` of ignored pixels.
            The default is black.
        alpha (float): The opacity of the label map, in :math:`[0, 1]`. The default is 1.
        all_label_names_in_legend (bool): If :obj:`True`, the legend lists every class;
            if :obj:`False` (default), only the classes that appear in ``label``.
        ax (matplotlib.axes.Axes): The axes to draw on. If :obj:`None` (default), a new one is
            created.

    Returns:
        tuple: ``ax``, the :class:`matplotlib.axes.Axes` drawn on, and ``legend_handles``, a
        list of :class:`matplotlib.patches.Patch` (one per class listed, coloured and named)
        to pass as ``ax.legend(handles=legend_handles)``.

    Raises:
        ValueError: ``label_colors`` does not have one colour per class, or ``label`` holds a
            class id beyond the number of classes.
    """
    from matplotlib.patches import Patch

    label = numpy.asarray(label)
    if label.ndim != 2:
        raise ValueError(f'vis_semantic_segmentation: label must have shape (H, W), but got '
                         f'shape {label.shape}')
    if label.dtype.kind not in 'iu':
        raise TypeError(f'vis_semantic_segmentation: label must be an integer array, but got '
                        f'dtype {label.dtype}')
    max_label = int(label.max()) if label.size else -1
    if label_names is not None:
        n_class = len(label_names)
    elif label_colors is not None:
        n_class = len(label_colors)
    else:
        n_class = max_label + 1
    if label_colors is not None and len(label_colors) != n_class:
        raise ValueError(f'vis_semantic_segmentation: label_colors must have one colour per '
                         f'class ({n_class}), but got {len(label_colors)}')
    if max_label >= n_class:
        raise ValueError(f'vis_semantic_segmentation: label values must be less than the '
                         f'number of classes ({n_class}), but got {max_label}')
    if label_names is None:
        label_names = [str(i) for i in range(n_class)]
    colors = voc_colormap(range(n_class)) if label_colors is None else label_colors
    colors = numpy.asarray(colors, dtype=numpy.float64).reshape(n_class, 3) / 255

    ax = vis_image(img, ax=ax)
    palette = numpy.concatenate([colors, numpy.asarray(ignore_label_color)[None] / 255])
    canvas = numpy.empty(label.shape + (4,))
    canvas[..., :3] = palette[numpy.where(label < 0, n_class, label)]
    canvas[..., 3] = alpha
    ax.imshow(canvas)

    legend_labels = range(n_class) if all_label_names_in_legend else \
        numpy.unique(label[label >= 0])
    legend_handles = [Patch(color=colors[i], label=label_names[i]) for i in legend_labels]
    return ax, legend_handles

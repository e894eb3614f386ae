"""Drawing bounding boxes straight onto an image with Pillow, for the command line."""

from __future__ import annotations

from collections.abc import Sequence

import numpy
from PIL import Image, ImageDraw, ImageFont

from vision.utils._validation import as_bbox
from vision.visualizations._instances import (
    caption,
    check_instances,
    drawing_order,
    per_instance_colors,
)
from vision.visualizations.colormap import voc_colormap
from vision.visualizations.vis_image import image_to_pixels

_RED = ((255, 0, 0),)


def _default_font(height: int, width: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """Pillow's bundled font at a size readable on an image of this size (at least 12 px)."""
    return ImageFont.load_default(size=max(12, round(min(height, width) / 30)))


def _text_color(color: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black on light backgrounds, white on dark ones."""
    luma = 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2]
    return (0, 0, 0) if luma > 128 else (255, 255, 255)


def draw_bbox(img: numpy.ndarray, bbox: numpy.ndarray, label: numpy.ndarray | None = None,
              score: numpy.ndarray | None = None, label_names: Sequence[str] | None = None,
              instance_colors: Sequence | numpy.ndarray | None = None, linewidth: int = 3,
              sort_by_score: bool = True, font=None) -> Image.Image:
    """Draws bounding boxes, label names and scores onto an image and returns it.

    The matplotlib-free counterpart of :func:`vis_bbox`, for scripts and the command line:
    the result has the pixel size of ``img`` and can be saved with ``.save(path)``. Each box
    outline is ``linewidth`` pixels wide, drawn just inside the box; its caption
    (``'name: 0.87'``) is written on a tag of the box's colour above the box's top-left corner,
    or inside the box when there is no room above.

    Example:
        >>> bboxes, labels, scores = model.predict([img])
        >>> draw_bbox(img, bboxes[0], labels[0], scores[0],
        ...           label_names=voc_bbox_label_names).save('out.jpg')

    Args:
        img (~numpy.ndarray): An image of shape :math:`(3, H, W)` (RGB) or :math:`(1, H, W)`
            with values in :math:`[0, 255]`.
        bbox (~numpy.ndarray): Boxes of shape :math:`(R, 4)`, each
            :math:`(y_{min}, x_{min}, y_{max}, x_{max})` in pixels.
        label (~numpy.ndarray): Class ids of shape :math:`(R,)`. Optional.
        score (~numpy.ndarray): Scores of shape :math:`(R,)`. Optional.
        label_names (sequence of str): Names indexed by class id. Without them, no names are
            written.
        instance_colors (sequence of RGB triples): Colours in :math:`[0, 255]`; the
            :math:`i`-th is used for the :math:`i`-th box, cyclically if fewer are given.
            If :obj:`None`, each class has its VOC colour (``voc_colormap(label + 1)``), or
            every box is red when ``label`` is :obj:`None`.
        linewidth (int): The width of the box outlines in pixels. The default is 3.
        sort_by_score (bool): If :obj:`True` and ``score`` is given, boxes with higher scores
            are drawn over boxes with lower ones.
        font (PIL.ImageFont.ImageFont or PIL.ImageFont.FreeTypeFont): The caption font. If
            :obj:`None`, Pillow's bundled font at ``max(12, min(H, W) / 30)`` pixels.

    Returns:
        PIL.Image.Image: A new RGB image of size :math:`(W, H)`.

    Raises:
        ValueError: ``img`` or ``bbox`` has the wrong shape, ``label`` or ``score`` does not
            have one entry per box, or a label does not index ``label_names``.
    """
    pixels = image_to_pixels('draw_bbox', img)
    bbox = as_bbox('draw_bbox', 'bbox', bbox)
    n_inst = len(bbox)
    check_instances('draw_bbox', n_inst, label, score, label_names)
    if instance_colors is None:
        instance_colors = _RED if label is None or n_inst == 0 else \
            voc_colormap(numpy.asarray(label) + 1)
    colors = numpy.rint(per_instance_colors('draw_bbox', instance_colors, n_inst)).astype(int)

    if pixels.shape[2] == 1:
        pixels = pixels.repeat(3, axis=2)
    canvas = Image.fromarray(numpy.ascontiguousarray(pixels))
    draw = ImageDraw.Draw(canvas)
    font = _default_font(canvas.height, canvas.width) if font is None else font
    # The outline covers the pixels inside the box: columns x_min .. x_max - 1.
    corners = numpy.rint(bbox[:, [1, 0, 3, 2]]).astype(int)
    corners[:, 2:] = numpy.maximum(corners[:, 2:] - 1, corners[:, :2])
    for i in drawing_order(score, sort_by_score, n_inst):
        color = tuple(int(c) for c in colors[i])
        x0, y0, x1, y1 = (int(c) for c in corners[i])
        draw.rectangle((x0, y0, x1, y1), outline=color, width=linewidth)
        text = caption(i, label, score, label_names)
        if text:
            _draw_tag(draw, text, x0, y0, color, font, canvas.width)
    return canvas


def _draw_tag(draw: ImageDraw.ImageDraw, text: str, x: int, y: int,
              color: tuple[int, int, int], font, image_width: int) -> None:
    """Writes ``text`` on a filled tag whose bottom-left corner is at ``(x, y)`` (its top-left
    corner when there is no room above), kept inside the image horizontally."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font)
    pad = max(1, (bottom - top) // 5)
    width, height = right - left + 2 * pad, bottom - top + 2 * pad
    x = max(0, min(x, image_width - width))
    y = y - height if y >= height else max(y, 0)
    draw.rectangle((x, y, x + width - 1, y + height - 1), fill=color)
    draw.text((x + pad - left, y + pad - top), text, fill=_text_color(color), font=font)

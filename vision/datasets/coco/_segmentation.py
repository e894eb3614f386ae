"""COCO segmentations (polygons, run-length encodings) decoded to masks, without pycocotools.

A run-length encoding (RLE) lists the lengths of alternating runs of 0 and 1, starting with 0,
over the pixels in column-major order. Uncompressed, ``counts`` is a list of integers; compressed
(pycocotools' ``rleToString``), it is a string where each count, after the third, is stored as
the difference from the count two places before, in groups of 5 bits (low bits first) offset by
48, the bit 32 of a character meaning that more characters follow and the bit 16 of the last
character the sign.
"""

from __future__ import annotations

import numpy
from PIL import Image, ImageDraw

_OFFSET = 48
_MORE = 0x20
_SIGN = 0x10
_BITS = 0x1F


class SegmentationError(ValueError):
    """A segmentation cannot be decoded; ``field`` says which part and ``problem`` why."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f'{field} {problem}')


def rle_counts_from_string(counts: str) -> numpy.ndarray:
    """Decodes the compressed ``counts`` string of pycocotools into run lengths.

    Args:
        counts (str): The string, characters ``'0'`` to ``'o'``.

    Returns:
        ~numpy.ndarray: int64 run lengths.

    Raises:
        SegmentationError: The string holds other characters or ends inside a number.

    """
    try:
        codes = numpy.frombuffer(counts.encode('ascii'), dtype=numpy.uint8).astype(numpy.int64)
    except UnicodeEncodeError:
        raise SegmentationError('counts', 'must be an ASCII string') from None
    codes -= _OFFSET
    if ((codes < 0) | (codes > 2 * _MORE - 1)).any():
        raise SegmentationError('counts', "holds characters outside '0' to 'o'")
    if not len(codes):
        return codes
    more = (codes & _MORE) != 0
    if more[-1]:
        raise SegmentationError('counts', 'ends inside a number')
    # Each number is a group of characters ending with one whose bit 32 is clear.
    starts = numpy.concatenate(([0], numpy.flatnonzero(~more[:-1]) + 1))
    group = numpy.cumsum(numpy.concatenate(([0], ~more[:-1])))
    shift = 5 * (numpy.arange(len(codes)) - starts[group])
    values = numpy.add.reduceat((codes & _BITS) << shift, starts)
    last = numpy.concatenate((starts[1:], [len(codes)])) - 1
    negative = (codes[last] & _SIGN) != 0
    values[negative] -= numpy.int64(1) << (shift[last[negative]] + 5)
    # Counts after the third are differences from the count two places before.
    values[1::2] = numpy.cumsum(values[1::2])
    values[2::2] = numpy.cumsum(values[2::2])
    return values


def rle_to_mask(counts, size: tuple[int, int]) -> numpy.ndarray:
    """Decodes a run-length encoding.

    Args:
        counts (list of int or str): Uncompressed or compressed counts.
        size (tuple of int): ``(H, W)``.

    Returns:
        ~numpy.ndarray: bool :math:`(H, W)`.

    Raises:
        SegmentationError: The counts are negative or do not add up to :math:`H W`.

    """
    height, width = size
    if isinstance(counts, str):
        counts = rle_counts_from_string(counts)
    else:
        if not isinstance(counts, list) or not all(
                isinstance(c, int) and not isinstance(c, bool) for c in counts):
            raise SegmentationError('counts', 'must be a string or a list of integers')
        counts = numpy.array(counts, dtype=numpy.int64)
    if (counts < 0).any():
        raise SegmentationError('counts', 'holds negative run lengths')
    if counts.sum() != height * width:
        raise SegmentationError('counts', f'add up to {counts.sum()} pixels, but the mask has '
                                          f'{height} x {width} = {height * width}')
    values = numpy.arange(len(counts)) % 2 == 1
    return numpy.repeat(values, counts).reshape(width, height).T


def polygons_to_mask(polygons: list, size: tuple[int, int]) -> numpy.ndarray:
    """Fills polygons, each a flat list ``[x0, y0, x1, y1, ...]`` in pixels, as ChainerCV does
    (Pillow's ``ImageDraw.polygon`` with outline and fill).

    Args:
        polygons (list of lists of numbers): The parts of one object.
        size (tuple of int): ``(H, W)``.

    Returns:
        ~numpy.ndarray: bool :math:`(H, W)`, the union of the parts.

    Raises:
        SegmentationError: A polygon is not a list of an even number (at least 2) of numbers.

    """
    height, width = size
    image = Image.new('L', (width, height), 0)
    draw = ImageDraw.Draw(image)
    for k, polygon in enumerate(polygons):
        if not isinstance(polygon, list) or len(polygon) < 2 or len(polygon) % 2 or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in polygon):
            raise SegmentationError(f'[{k}]', 'must be a list of an even number of '
                                              'coordinates x0, y0, x1, y1, ...')
        points = [(float(x), float(y)) for x, y in zip(polygon[::2], polygon[1::2])]
        if len(points) < 3:
            draw.line(points * 2, fill=1)
        else:
            draw.polygon(points, outline=1, fill=1)
    return numpy.asarray(image, dtype=bool)


def segmentation_to_mask(segmentation, size: tuple[int, int]) -> numpy.ndarray:
    """Decodes a COCO ``segmentation``: a list of polygons, or an RLE object with ``counts`` and
    ``size``.

    Args:
        segmentation (list or dict): The field of an annotation.
        size (tuple of int): ``(H, W)`` of the image.

    Returns:
        ~numpy.ndarray: bool :math:`(H, W)`.

    Raises:
        SegmentationError: The segmentation is malformed, or an RLE's ``size`` is not that of
            the image.

    """
    if isinstance(segmentation, list):
        return polygons_to_mask(segmentation, size)
    if not isinstance(segmentation, dict) or 'counts' not in segmentation:
        raise SegmentationError('', 'must be a list of polygons or an object with counts and '
                                    'size')
    rle_size = segmentation.get('size')
    if not isinstance(rle_size, list) or len(rle_size) != 2:
        raise SegmentationError('.size', f'must be [height, width], but is {rle_size!r}')
    if tuple(rle_size) != tuple(size):
        raise SegmentationError('.size', f'is {rle_size}, but the image has (height, width) '
                                         f'{list(size)}')
    try:
        return rle_to_mask(segmentation['counts'], size)
    except SegmentationError as error:
        raise SegmentationError('.' + error.field, error.problem) from None

"""Reading a label image (a map of class ids) into an ``(H, W)`` array."""

from __future__ import annotations

import numpy
from numpy.typing import DTypeLike

from vision.utils.image._open import PathOrFile, open_oriented


def read_label(file: PathOrFile, dtype: DTypeLike = numpy.int32) -> numpy.ndarray:
    """Reads a label image from a file.

    The value of each pixel is its class id: the palette index of a palette (``P``) image, the
    value of a single-band image (8-bit, 16-bit, 32-bit or binary). An alpha band is dropped.
    A colour image is accepted only when its three channels are equal (a gray label map saved
    as RGB). The EXIF orientation is applied as in :func:`read_image`, so that a label map stays
    aligned with its image.

    Args:
        file (str, os.PathLike or file object): A path of an image file, or a binary file
            object of one.
        dtype: The dtype of the returned array. The default is :obj:`numpy.int32`.

    Returns:
        ~numpy.ndarray: The label map, of shape :math:`(H, W)` and dtype ``dtype``. The array
        is writable and owns its memory.

    Raises:
        ImageFileError: The file cannot be read as an image, as in :func:`read_image`.
        ValueError: The image is a colour image whose channels differ: its colours are not
            class ids. Map the colours to ids, or read it with :func:`read_image`.
    """
    with open_oriented(file, 'read_label') as img:
        if img.mode == 'LA':
            label = numpy.asarray(img)[:, :, 0]
        elif len(img.getbands()) == 1:
            label = numpy.asarray(img)
        else:
            rgb = numpy.asarray(img.convert('RGB'))
            if not (rgb == rgb[:, :, :1]).all():
                raise ValueError(
                    f'read_label: the image must hold class ids (a palette or single-band '
                    f'image), but got a colour image (mode {img.mode}) whose channels differ; '
                    'map its colours to class ids, or read it with read_image')
            label = rgb[:, :, 0]
    return label.astype(dtype, order='C')

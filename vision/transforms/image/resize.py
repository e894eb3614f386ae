"""Resizing an image to a given size."""

from __future__ import annotations

import numpy
from PIL import Image

from vision._backend_switch import check_backend
from vision.transforms._checks import check_image, check_size
from vision.transforms.image._pil import ALL_FILTERS, map_channels, resampling_filter


def resize(img: numpy.ndarray, size: tuple[int, int],
           interpolation: int | str = Image.BILINEAR) -> numpy.ndarray:
    """Resizes an image to match the given size.

    Each channel is resized by Pillow as a 32-bit float (mode ``'F'``) image, as ChainerCV's
    Pillow backend does, so images of any number of channels are accepted. Pillow's filters
    widen with the scale when shrinking (they antialias), unlike OpenCV's ``cv2.resize``.

    ChainerCV's switch ``chainer.config.cv_resize_backend`` is honoured when Chainer is
    imported (None or ``'PIL'``; ``'cv2'`` raises :class:`ValueError` if OpenCV is not
    installed, as in ChainerCV; any other value raises it too), but the computation is always
    Pillow's.

    Args:
        img (~numpy.ndarray): An image of shape :math:`(C, H, W)`, with :math:`H, W > 0`. Any
            real or boolean dtype; float32 is the convention.
        size (tuple of two ints): The size of the output, :math:`(H_{out}, W_{out})`, both
            positive.
        interpolation (int or str): The sampling filter: a Pillow constant
            (:obj:`PIL.Image.NEAREST`, :obj:`PIL.Image.BILINEAR` (default),
            :obj:`PIL.Image.BICUBIC`, :obj:`PIL.Image.LANCZOS`, :obj:`PIL.Image.BOX`,
            :obj:`PIL.Image.HAMMING`) or a name: ``'nearest'``, ``'bilinear'``
            (or ``'linear'``), ``'bicubic'`` (or ``'cubic'``), ``'lanczos'``, ``'hamming'``,
            ``'box'`` and ``'area'``. ``'area'`` is Pillow's ``BOX`` filter: each output pixel
            is the area-weighted mean of the input pixels it covers (OpenCV's ``INTER_AREA``
            when shrinking; when enlarging, ``BOX`` is close to nearest-neighbour sampling).

    Returns:
        ~numpy.ndarray: The resized image, :math:`(C, H_{out}, W_{out})`, of the dtype of
        ``img``. The values are computed in float32 and cast back: integers are rounded and
        clipped to the range of their dtype, booleans thresholded at 0.5.
    """
    C, H, W = check_image('resize', img, 'fiub')
    out_H, out_W = check_size('resize', 'size', size)
    resample = resampling_filter('resize', interpolation, ALL_FILTERS)
    check_backend('resize', 'cv_resize_backend')
    if C == 0:
        return numpy.empty((0, out_H, out_W), dtype=img.dtype)
    if H == 0 or W == 0:
        raise ValueError(f'resize: img must have a positive height and width, '
                         f'but got shape {img.shape}')
    return map_channels(img, lambda ch, _: ch.resize((out_W, out_H), resample=resample))

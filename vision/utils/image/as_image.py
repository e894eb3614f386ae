"""Checking an image given to a model and casting it to float32, as ``predict`` needs it."""

from __future__ import annotations

import numpy

from vision.utils._validation import ShapeError

_LAST_AXIS_CHANNELS = (1, 3, 4)  # gray, RGB, RGBA: what an (H, W, C) image ends with


def _looks_channels_last(shape: tuple[int, int, int], n_channel: int | None) -> bool:
    if n_channel is not None:
        return shape[2] == n_channel
    return shape[0] > max(_LAST_AXIS_CHANNELS) and shape[2] in _LAST_AXIS_CHANNELS


def as_image(fname: str, name: str, img, n_channel: int | None = None) -> numpy.ndarray:
    """Returns ``img`` as a float32 ``(C, H, W)`` image, or raises an error saying what is wrong.

    The one check of the images given to ``predict``: the classifiers and the detectors call
    it on each image before preparing it. Integer and floating-point images are cast with
    ``astype(numpy.float32)``, as ChainerCV's ``prepare`` methods do (a float64 image is
    taken, not refused); an image laid out ``(H, W, C)``, as Pillow, OpenCV and Matplotlib
    give it, is refused with the transpose that fixes it.

    Args:
        fname (str): The public function that checks, named first by the error.
        name (str): The argument as the error names it (``'img'``, ``'imgs[3]'``).
        img (~numpy.ndarray): The image, :math:`(C, H, W)`, values 0-255.
        n_channel (int or None): The number of channels :math:`C` the model takes; when
            None, any, but an image whose first axis is longer than 4 and whose last axis is
            1, 3 or 4 long is taken as ``(H, W, C)`` and refused.

    Returns:
        ~numpy.ndarray: ``img`` as float32, :math:`(C, H, W)`; ``img`` itself when it is
        float32 already.

    Raises:
        TypeError: ``img`` is not a :class:`numpy.ndarray`, or not of an integer or
            floating-point dtype.
        ShapeError: ``img`` is not three-dimensional, does not have ``n_channel`` channels, is
            laid out ``(H, W, C)``, or has no pixel (a :class:`ValueError`).
    """
    if not isinstance(img, numpy.ndarray):
        raise TypeError(f'{fname}: {name} must be a numpy.ndarray (C, H, W), '
                        f'but got {type(img).__name__}')
    if img.ndim != 3:
        raise ShapeError(f'{fname}: {name} must have shape (C, H, W), but got shape {img.shape}')
    if _looks_channels_last(img.shape, n_channel) and img.shape[0] != n_channel:
        raise ShapeError(f'{fname}: {name} must have shape (C, H, W) (channels first), but got '
                         f'shape {img.shape}, which looks like (H, W, C): pass '
                         f'{name}.transpose(2, 0, 1)')
    if n_channel is not None and img.shape[0] != n_channel:
        raise ShapeError(f'{fname}: {name} must have shape (C, H, W) with C = {n_channel}, but '
                         f'got shape {img.shape}')
    if 0 in img.shape[1:]:
        raise ShapeError(f'{fname}: {name} must have at least one pixel, but got shape '
                         f'{img.shape}')
    if img.dtype.kind not in 'iuf':
        raise TypeError(f'{fname}: {name} must be an integer or floating-point array (float32, '
                        f'values 0-255), but got dtype {img.dtype}')
    return img.astype(numpy.float32, copy=False)


def as_rgb_or_gray(fname: str, name: str, img) -> numpy.ndarray:
    """:func:`as_image` for a model that takes RGB images and grayscale ones (which it
    gives to its network as three equal channels, as ChainerCV's models do).

    Raises:
        ValueError: ``img`` does not have 3 or 1 channels (and what :func:`as_image` raises).
    """
    img = as_image(fname, name, img)
    if img.shape[0] not in (1, 3):
        raise ShapeError(f'{fname}: {name} must have 3 channels (RGB) or 1 (grayscale), but got '
                         f'shape {img.shape}')
    return img

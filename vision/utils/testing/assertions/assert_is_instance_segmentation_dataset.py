"""The instance segmentation dataset contract: examples ``(img, mask, label, ...)``."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import (
    check_array,
    check_example_length,
    check_examples,
)
from vision.utils.testing.assertions.assert_is_bbox_dataset import check_labels
from vision.utils.testing.assertions.assert_is_image import check_image


def check_masks(where: str, mask, img_shape) -> None:
    """Checks boolean masks ``(R, H, W)`` for an image of shape ``(C, H, W)``."""
    check_array(where, 'mask', mask, numpy.bool_, f'(R, H, W) with (H, W) = {img_shape[1:]}',
                lambda s: len(s) == 3 and s[1:] == img_shape[1:])


def assert_is_instance_segmentation_dataset(dataset, n_fg_class: int,
                                            n_example: int | None = None) -> None:
    """Checks that a dataset follows the instance segmentation dataset convention.

    Each example must be a tuple whose first three elements are an RGB image (see
    :func:`assert_is_image`), its masks, a boolean array of shape :math:`(R, H, W)`, and their
    labels, an int32 array of shape :math:`(R,)` with values in
    :math:`[0, n\\_fg\\_class - 1]`. Raises :class:`AssertionError` saying which example is
    wrong and how.

    Args:
        dataset: The dataset to check: a sequence of examples.
        n_fg_class (int): The number of foreground classes.
        n_example (int): If given, this many examples picked at random are checked;
            otherwise all of them.
    """

    def check_example(where, example):
        check_example_length(where, example, 3, 'img, mask and label')
        img, mask, label = example[:3]
        check_image(where, img)
        check_masks(where, mask, img.shape)
        check_labels(where, label, len(mask), n_fg_class, 'mask')

    check_examples('assert_is_instance_segmentation_dataset', dataset, n_example,
                   check_example)

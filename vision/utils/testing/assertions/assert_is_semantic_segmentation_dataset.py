"""The semantic segmentation dataset contract: examples ``(img, label, ...)``."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import (
    check_array,
    check_example_length,
    check_examples,
    check_range,
)
from vision.utils.testing.assertions.assert_is_image import check_image


def assert_is_semantic_segmentation_dataset(dataset, n_class: int,
                                            n_example: int | None = None) -> None:
    """Checks that a dataset follows the semantic segmentation dataset convention.

    Each example must be a tuple whose first two elements are an RGB image (see
    :func:`assert_is_image`) and its label map, an int32 array of shape :math:`(H, W)` with
    values in :math:`[-1, n\\_class - 1]` (-1 marks ignored pixels). Raises
    :class:`AssertionError` saying which example is wrong and how.

    Args:
        dataset: The dataset to check: a sequence of examples.
        n_class (int): The number of classes, background included.
        n_example (int): If given, this many examples picked at random are checked;
            otherwise all of them.
    """

    def check_example(where, example):
        check_example_length(where, example, 2, 'img and label')
        img, label = example[:2]
        check_image(where, img)
        check_array(where, 'label', label, numpy.int32, f'(H, W) = {img.shape[1:]}',
                    lambda s: s == img.shape[1:])
        check_range(where, 'label', label, -1, n_class - 1)

    check_examples('assert_is_semantic_segmentation_dataset', dataset, n_example,
                   check_example)

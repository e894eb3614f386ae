"""The classification dataset contract: examples ``(img, label, ...)``."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import (
    check_example_length,
    check_examples,
    describe,
    fail_unless,
)
from vision.utils.testing.assertions.assert_is_image import check_image


def assert_is_label_dataset(dataset, n_class: int, n_example: int | None = None,
                            color: bool = True) -> None:
    """Checks that a dataset follows the label (classification) dataset convention.

    Each example must be a tuple whose first two elements are an image (see
    :func:`assert_is_image`) and its label, a :obj:`numpy.int32` scalar in
    :math:`[0, n\\_class - 1]`. Raises :class:`AssertionError` saying which example is wrong and
    how.

    Args:
        dataset: The dataset to check: a sequence of examples.
        n_class (int): The number of classes.
        n_example (int): If given, this many examples picked at random are checked;
            otherwise all of them.
        color (bool): If :obj:`True` (default), images must have 3 channels, else 1.
    """

    def check_example(where, example):
        check_example_length(where, example, 2, 'img and label')
        img, label = example[:2]
        check_image(where, img, color=color)
        fail_unless(isinstance(label, numpy.int32),
                    f'{where}: label must be a numpy.int32 scalar, but got {describe(label)}')
        fail_unless(0 <= label < n_class,
                    f'{where}: label must be in [0, {n_class - 1}], but got {label}')

    check_examples('assert_is_label_dataset', dataset, n_example, check_example)

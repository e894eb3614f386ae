"""The detection dataset contract: examples ``(img, bbox, label, ...)``."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import (
    check_array,
    check_example_length,
    check_examples,
    check_range,
    fail_unless,
)
from vision.utils.testing.assertions.assert_is_bbox import check_bbox
from vision.utils.testing.assertions.assert_is_image import check_image


def check_labels(where: str, label, n: int, n_fg_class: int, of: str) -> None:
    """Checks int32 labels ``(n,)`` in ``[0, n_fg_class - 1]``, one per element of ``of``."""
    check_array(where, 'label', label, numpy.int32, '(R,)', lambda s: len(s) == 1)
    fail_unless(len(label) == n, f'{where}: label must have one entry per {of} ({n}), '
                                 f'but got {len(label)}')
    check_range(where, 'label', label, 0, n_fg_class - 1)


def assert_is_bbox_dataset(dataset, n_fg_class: int, n_example: int | None = None) -> None:
    """Checks that a dataset follows the bounding box (detection) dataset convention.

    Each example must be a tuple whose first three elements are an RGB image (see
    :func:`assert_is_image`), its boxes (see :func:`assert_is_bbox`, inside the image) and
    their labels, an int32 array of shape :math:`(R,)` with values in
    :math:`[0, n\\_fg\\_class - 1]`. Raises :class:`AssertionError` saying which example is
    wrong and how.

    Args:
        dataset: The dataset to check: a sequence of examples.
        n_fg_class (int): The number of foreground classes.
        n_example (int): If given, this many examples picked at random are checked;
            otherwise all of them.
    """

    def check_example(where, example):
        check_example_length(where, example, 3, 'img, bbox and label')
        img, bbox, label = example[:3]
        check_image(where, img)
        check_bbox(where, bbox, size=img.shape[1:])
        check_labels(where, label, len(bbox), n_fg_class, 'box')

    check_examples('assert_is_bbox_dataset', dataset, n_example, check_example)

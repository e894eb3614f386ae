"""The point dataset contract: examples ``(img, point[, visible], ...)``."""

from __future__ import annotations

from vision.utils.testing.assertions._common import check_example_length, check_examples
from vision.utils.testing.assertions.assert_is_image import check_image
from vision.utils.testing.assertions.assert_is_point import check_point


def assert_is_point_dataset(dataset, n_point: int | None = None, n_example: int | None = None,
                            no_visible: bool = False) -> None:
    """Checks that a dataset follows the point (keypoint) dataset convention.

    Each example must be a tuple whose first elements are an RGB image (see
    :func:`assert_is_image`), its points and, if the example has a third element and
    ``no_visible`` is :obj:`False`, their visibility (see :func:`assert_is_point`; visible
    points must lie in the image). Raises :class:`AssertionError` saying which example is
    wrong and how.

    Args:
        dataset: The dataset to check: a sequence of examples.
        n_point (int): If given, the number of points of every instance.
        n_example (int): If given, this many examples picked at random are checked;
            otherwise all of them.
        no_visible (bool): If :obj:`True`, examples never hold a visibility; a third element
            is something else.
    """

    def check_example(where, example):
        check_example_length(where, example, 2, 'img, point and optionally visible')
        img, point = example[:2]
        visible = None if len(example) == 2 or no_visible else example[2]
        check_image(where, img)
        check_point(where, point, visible, img.shape[1:], n_point)

    check_examples('assert_is_point_dataset', dataset, n_example, check_example)

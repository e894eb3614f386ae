"""The classification link contract: ``predict(imgs)`` returns ``probs``, one per image."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import (
    check_array,
    check_prediction_count,
    check_range,
    fail_unless,
    random_images,
)


def assert_is_classification_link(link, n_class: int) -> None:
    """Checks that a link follows the classification link convention.

    ``link.predict`` is called on two random RGB images, of sizes :math:`(480, 640)` and
    :math:`(480, 320)`, and must return a list with one float32 array of shape
    :math:`(n\\_class,)` per image, holding probabilities: values in :math:`[0, 1]` that sum
    to 1 (within 1e-4). Raises :class:`AssertionError` saying what is wrong otherwise.

    Args:
        link: The object to check; anything with a ``predict(imgs)`` method.
        n_class (int): The number of classes.
    """
    where = 'assert_is_classification_link'
    imgs = random_images()
    probs = link.predict(imgs)
    fail_unless(isinstance(probs, list),
                f'{where}: predict must return a list with one entry per image, but got a '
                f'value of type {type(probs).__name__}')
    check_prediction_count(where, 'probs', probs, imgs)
    for i, prob in enumerate(probs):
        at = f'{where}: image {i}'
        check_array(at, 'prob', prob, numpy.float32, f'({n_class},)', (n_class,).__eq__)
        check_range(at, 'prob', prob, 0, 1)
        total = float(prob.sum(dtype=numpy.float64))
        fail_unless(abs(total - 1) <= 1e-4,
                    f'{at}: prob must sum to 1, but sums to {total}')

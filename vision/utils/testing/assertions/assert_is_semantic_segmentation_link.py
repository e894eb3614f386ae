"""The semantic segmentation link contract: ``predict(imgs)`` returns ``labels``."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import (
    check_array,
    check_prediction_count,
    check_range,
    random_images,
)


def assert_is_semantic_segmentation_link(link, n_class: int) -> None:
    """Checks that a link follows the semantic segmentation link convention.

    ``link.predict`` is called on two random RGB images, of sizes :math:`(480, 640)` and
    :math:`(480, 320)`, and must return one label map per image: an int32 array of the size of
    the image with values in :math:`[0, n\\_class - 1]`. Raises :class:`AssertionError` saying
    what is wrong otherwise.

    Args:
        link: The object to check; anything with a ``predict(imgs)`` method.
        n_class (int): The number of classes, background included.
    """
    where = 'assert_is_semantic_segmentation_link'
    imgs = random_images()
    labels = link.predict(imgs)
    check_prediction_count(where, 'labels', labels, imgs)
    for i, (img, label) in enumerate(zip(imgs, labels)):
        at = f'{where}: image {i}'
        check_array(at, 'label', label, numpy.int32, f'(H, W) = {img.shape[1:]}',
                    img.shape[1:].__eq__)
        check_range(at, 'label', label, 0, n_class - 1)

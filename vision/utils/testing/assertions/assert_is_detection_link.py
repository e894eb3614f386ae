"""The detection link contract: ``predict(imgs)`` returns ``bboxes, labels, scores``."""

from __future__ import annotations

import numpy

from vision.utils.testing.assertions._common import (
    check_array,
    check_prediction_count,
    fail_unless,
    random_images,
)
from vision.utils.testing.assertions.assert_is_bbox import check_bbox
from vision.utils.testing.assertions.assert_is_bbox_dataset import check_labels


def check_scores(where: str, score, n: int, of: str) -> None:
    """Checks float32 scores ``(n,)``, one per element of ``of``."""
    check_array(where, 'score', score, numpy.float32, '(R,)', lambda s: len(s) == 1)
    fail_unless(len(score) == n, f'{where}: score must have one entry per {of} ({n}), '
                                 f'but got {len(score)}')


def check_three_outputs(where: str, result, names: str) -> tuple:
    """Checks that ``predict`` returned three sequences and returns them."""
    try:
        length = len(result)
    except TypeError:
        length = None
    fail_unless(length == 3, f'{where}: predict must return three values ({names}), but got '
                             f'{length if length is not None else type(result).__name__}')
    return tuple(result)


def assert_is_detection_link(link, n_fg_class: int) -> None:
    """Checks that a link follows the detection link convention.

    ``link.predict`` is called on two random RGB images, of sizes :math:`(480, 640)` and
    :math:`(480, 320)`, and must return ``bboxes, labels, scores``, one entry per image: boxes
    as :func:`assert_is_bbox` describes, int32 labels :math:`(R,)` in
    :math:`[0, n\\_fg\\_class - 1]` and float32 scores :math:`(R,)`. Raises
    :class:`AssertionError` saying what is wrong otherwise.

    Args:
        link: The object to check; anything with a ``predict(imgs)`` method.
        n_fg_class (int): The number of foreground classes.
    """
    where = 'assert_is_detection_link'
    imgs = random_images()
    bboxes, labels, scores = check_three_outputs(where, link.predict(imgs),
                                                 'bboxes, labels and scores')
    check_prediction_count(where, 'bboxes', bboxes, imgs)
    check_prediction_count(where, 'labels', labels, imgs)
    check_prediction_count(where, 'scores', scores, imgs)
    for i, (bbox, label, score) in enumerate(zip(bboxes, labels, scores)):
        at = f'{where}: image {i}'
        check_bbox(at, bbox)
        check_labels(at, label, len(bbox), n_fg_class, 'box')
        check_scores(at, score, len(bbox), 'box')

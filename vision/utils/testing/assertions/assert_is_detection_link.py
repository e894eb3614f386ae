"""The detection link contract: ``predict(imgs)`` returns ``bboxes, labels, scores`` (and
``points`` for a keypoint detector)."""

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


def check_three_outputs(where: str, result, names: str, or_four: str | None = None) -> tuple:
    """Checks that ``predict`` returned three sequences (or four, when ``or_four`` names
    them) and returns them."""
    try:
        length = len(result)
    except TypeError:
        length = None
    lengths, expected = (3,), f'three values ({names})'
    if or_four is not None:
        lengths, expected = (3, 4), f'{expected} or four ({or_four})'
    fail_unless(length in lengths, f'{where}: predict must return {expected}, but got '
                                   f'{length if length is not None else type(result).__name__}')
    return tuple(result)


def assert_is_detection_link(link, n_fg_class: int) -> None:
    """Checks that a link follows the detection link convention.

    ``link.predict`` is called on two random RGB images, of sizes :math:`(480, 640)` and
    :math:`(480, 320)`, and must return ``bboxes, labels, scores``, one entry per image: boxes
    as :func:`assert_is_bbox` describes, int32 labels :math:`(R,)` in
    :math:`[0, n\\_fg\\_class - 1]` and float32 scores :math:`(R,)`. A keypoint detector
    (MTCNN) returns ``points`` after them: float32 :math:`(R, K, 2)` per image, as
    :func:`assert_is_point` describes. Raises :class:`AssertionError` saying what is wrong
    otherwise.

    Args:
        link: The object to check; anything with a ``predict(imgs)`` method.
        n_fg_class (int): The number of foreground classes.
    """
    where = 'assert_is_detection_link'
    imgs = random_images()
    outputs = check_three_outputs(where, link.predict(imgs), 'bboxes, labels and scores',
                                  'bboxes, labels, scores and points')
    names = ('bboxes', 'labels', 'scores', 'points')
    for name, output in zip(names, outputs):
        check_prediction_count(where, name, output, imgs)
    for i, (bbox, label, score) in enumerate(zip(*outputs[:3])):
        at = f'{where}: image {i}'
        check_bbox(at, bbox)
        check_labels(at, label, len(bbox), n_fg_class, 'box')
        check_scores(at, score, len(bbox), 'box')
        if len(outputs) == 4:
            point = outputs[3][i]
            check_array(at, 'points', point, numpy.float32, '(R, K, 2)',
                        lambda s: len(s) == 3 and s[2] == 2)
            fail_unless(len(point) == len(bbox), f'{at}: points must have one entry per box '
                                                 f'({len(bbox)}), but got {len(point)}')

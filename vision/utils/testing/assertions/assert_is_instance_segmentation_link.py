"""The instance segmentation link contract: ``predict(imgs)`` returns ``masks, labels, scores``."""

from __future__ import annotations

from vision.utils.testing.assertions._common import check_prediction_count, random_images
from vision.utils.testing.assertions.assert_is_bbox_dataset import check_labels
from vision.utils.testing.assertions.assert_is_detection_link import (
    check_scores,
    check_three_outputs,
)
from vision.utils.testing.assertions.assert_is_instance_segmentation_dataset import (
    check_masks,
)


def assert_is_instance_segmentation_link(link, n_fg_class: int) -> None:
    """Checks that a link follows the instance segmentation link convention.

    ``link.predict`` is called on two random RGB images, of sizes :math:`(480, 640)` and
    :math:`(480, 320)`, and must return ``masks, labels, scores``, one entry per image:
    boolean masks :math:`(R, H, W)` of the size of the image, int32 labels :math:`(R,)` in
    :math:`[0, n\\_fg\\_class - 1]` and float32 scores :math:`(R,)`. Raises
    :class:`AssertionError` saying what is wrong otherwise.

    Args:
        link: The object to check; anything with a ``predict(imgs)`` method.
        n_fg_class (int): The number of foreground classes.
    """
    where = 'assert_is_instance_segmentation_link'
    imgs = random_images()
    masks, labels, scores = check_three_outputs(where, link.predict(imgs),
                                                'masks, labels and scores')
    check_prediction_count(where, 'masks', masks, imgs)
    check_prediction_count(where, 'labels', labels, imgs)
    check_prediction_count(where, 'scores', scores, imgs)
    for i, (img, mask, label, score) in enumerate(zip(imgs, masks, labels, scores)):
        at = f'{where}: image {i}'
        check_masks(at, mask, img.shape)
        check_labels(at, label, len(mask), n_fg_class, 'mask')
        check_scores(at, score, len(mask), 'mask')

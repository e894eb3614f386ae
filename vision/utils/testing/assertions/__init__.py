"""Contract assertions: does an array, a dataset or a link follow the data conventions?

Each raises :class:`AssertionError` with a message naming the function, the example or image,
the value, what was expected and what was found.
"""

from vision.utils.testing.assertions.assert_is_bbox import assert_is_bbox
from vision.utils.testing.assertions.assert_is_bbox_dataset import assert_is_bbox_dataset
from vision.utils.testing.assertions.assert_is_classification_link import (
    assert_is_classification_link,
)
from vision.utils.testing.assertions.assert_is_detection_link import assert_is_detection_link
from vision.utils.testing.assertions.assert_is_image import assert_is_image
from vision.utils.testing.assertions.assert_is_instance_segmentation_dataset import (
    assert_is_instance_segmentation_dataset,
)
from vision.utils.testing.assertions.assert_is_instance_segmentation_link import (
    assert_is_instance_segmentation_link,
)
from vision.utils.testing.assertions.assert_is_label_dataset import assert_is_label_dataset
from vision.utils.testing.assertions.assert_is_point import assert_is_point
from vision.utils.testing.assertions.assert_is_point_dataset import assert_is_point_dataset
from vision.utils.testing.assertions.assert_is_semantic_segmentation_dataset import (
    assert_is_semantic_segmentation_dataset,
)
from vision.utils.testing.assertions.assert_is_semantic_segmentation_link import (
    assert_is_semantic_segmentation_link,
)

__all__ = [
    'assert_is_bbox', 'assert_is_bbox_dataset', 'assert_is_classification_link',
    'assert_is_detection_link', 'assert_is_image',
    'assert_is_instance_segmentation_dataset', 'assert_is_instance_segmentation_link',
    'assert_is_label_dataset', 'assert_is_point', 'assert_is_point_dataset',
    'assert_is_semantic_segmentation_dataset', 'assert_is_semantic_segmentation_link',
]

"""Testing helpers: contract assertions, random boxes, a stub link and parameterised test
classes.

The names follow ``chainercv.utils.testing``; ``parameterize``, ``product``, ``product_dict``
and ``run_module`` are those of ``chainer.testing`` (:mod:`framework.testing`), which ChainerCV's
tests reach through this module. ``attr`` (``gpu``, ``slow``, ``mpi``) is
``framework.testing.attr``, imported on its own (also as ``vision.utils.testing.attr``), as it
needs pytest.
"""

from framework.testing.parameterized import parameterize, product, product_dict, run_module
from vision.utils.testing.assertions import (
    assert_is_bbox,
    assert_is_bbox_dataset,
    assert_is_classification_link,
    assert_is_detection_link,
    assert_is_image,
    assert_is_instance_segmentation_dataset,
    assert_is_instance_segmentation_link,
    assert_is_label_dataset,
    assert_is_point,
    assert_is_point_dataset,
    assert_is_semantic_segmentation_dataset,
    assert_is_semantic_segmentation_link,
)
from vision.utils.testing.constant_stub_link import ConstantStubLink
from vision.utils.testing.generate_random_bbox import generate_random_bbox

__all__ = [
    'ConstantStubLink', 'assert_is_bbox', 'assert_is_bbox_dataset',
    'assert_is_classification_link', 'assert_is_detection_link',
    'assert_is_image',
    'assert_is_instance_segmentation_dataset', 'assert_is_instance_segmentation_link',
    'assert_is_label_dataset', 'assert_is_point', 'assert_is_point_dataset',
    'assert_is_semantic_segmentation_dataset', 'assert_is_semantic_segmentation_link',
    'generate_random_bbox', 'parameterize', 'product', 'product_dict', 'run_module',
]

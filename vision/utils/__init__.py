"""Utilities shared by the zoo: image I/O, iteration helpers, box and mask helpers, downloads."""

from vision.utils.bbox import batched_non_maximum_suppression as batched_non_maximum_suppression
from vision.utils.bbox import bbox_iou as bbox_iou
from vision.utils.bbox import non_maximum_suppression as non_maximum_suppression
from vision.utils.download import cached_download as cached_download
from vision.utils.download import download_model as download_model
from vision.utils.download import extractall as extractall
from vision.utils.image import read_image as read_image
from vision.utils.image import read_label as read_label
from vision.utils.image import tile_images as tile_images
from vision.utils.image import write_image as write_image
from vision.utils.iterator import ProgressHook as ProgressHook
from vision.utils.iterator import apply_to_iterator as apply_to_iterator
from vision.utils.iterator import unzip as unzip
from vision.utils.mask import mask_iou as mask_iou
from vision.utils.mask import mask_to_bbox as mask_to_bbox
from vision.utils.mask import scale_mask as scale_mask
from vision.utils.testing import ConstantStubLink as ConstantStubLink
from vision.utils.testing import assert_is_bbox as assert_is_bbox
from vision.utils.testing import assert_is_bbox_dataset as assert_is_bbox_dataset
from vision.utils.testing import (
    assert_is_classification_link as assert_is_classification_link,
)
from vision.utils.testing import assert_is_detection_link as assert_is_detection_link
from vision.utils.testing import assert_is_image as assert_is_image
from vision.utils.testing import (
    assert_is_instance_segmentation_dataset as assert_is_instance_segmentation_dataset,
)
from vision.utils.testing import (
    assert_is_instance_segmentation_link as assert_is_instance_segmentation_link,
)
from vision.utils.testing import assert_is_label_dataset as assert_is_label_dataset
from vision.utils.testing import assert_is_point as assert_is_point
from vision.utils.testing import assert_is_point_dataset as assert_is_point_dataset
from vision.utils.testing import (
    assert_is_semantic_segmentation_dataset as assert_is_semantic_segmentation_dataset,
)
from vision.utils.testing import (
    assert_is_semantic_segmentation_link as assert_is_semantic_segmentation_link,
)
from vision.utils.testing import generate_random_bbox as generate_random_bbox

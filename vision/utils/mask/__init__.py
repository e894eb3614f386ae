"""Instance mask helpers: IoU, bounding boxes and scaling."""

from vision.utils.mask.mask_iou import mask_iou
from vision.utils.mask.mask_to_bbox import mask_to_bbox
from vision.utils.mask.scale_mask import scale_mask

__all__ = ['mask_iou', 'mask_to_bbox', 'scale_mask']

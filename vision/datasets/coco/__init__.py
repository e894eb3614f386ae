"""MS COCO: detection, instance segmentation and (panoptic-derived) semantic segmentation."""

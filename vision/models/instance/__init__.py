"""Instance segmentation models: each family in its subpackage (``mask_rcnn``)."""

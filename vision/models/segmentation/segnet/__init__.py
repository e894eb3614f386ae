"""SegNet, ChainerCV's ``chainercv.links.model.segnet``: :class:`SegNetBasic`."""

from vision.models.segmentation.segnet.segnet_basic import SegNetBasic

__all__ = ['SegNetBasic']

"""YOLOv3 (ChainerCV's ``YOLOv3``): a head on each of Darknet-53's three maps gives, for each
cell and each of three anchors, the box offsets, the objectness and the class scores (a
sigmoid each)."""

from __future__ import annotations

import os

import framework.functions as F
from framework.links import ChainList, Convolution2D, Sequential
from vision.models._registry import register_model
from vision.models.detection.yolo.darknet import darknet_conv
from vision.models.detection.yolo.darknet53 import Darknet53Extractor
from vision.models.detection.yolo.pretrained import resolve_weights
from vision.models.detection.yolo.yolo_base import YOLOBase, check_insize


@register_model('yolo_v3')
class YOLOv3(YOLOBase):
    """YOLOv3 (Redmon and Farhadi, "YOLOv3: An Incremental Improvement", 2018), ChainerCV's
    ``YOLOv3``: :class:`Darknet53Extractor` (width 32), a head on each of its maps (a 3x3
    convolution, then the 1x1 one of the outputs), (13x13 + 26x26 + 52x52) x 3 = 10647 boxes
    at 416.

    ``pretrained_model`` takes ``'voc0712'`` (ChainerCV's conversion of Darknet's weights
    trained on PASCAL VOC 2007 and 2012 trainval), the path of an NPZ file in ChainerCV's
    layout or of a Darknet ``.weights`` file, or None, as
    :class:`~vision.models.detection.yolo.YOLOv2Base` does; so do the arguments, attributes
    and errors.

    Args:
        n_fg_class (int or None): the number of foreground classes.
        pretrained_model (str, path or None): see above.
        base_channels (int or None): the width of the extractor; the weights fix it, else
            32, Darknet's.
        insize (int): the side of the square input, a multiple of 32 (416 by default).
    """

    _base_channels = 32
    _head_bias = 'subnet/0/1/b'
    _n_anchors = 3
    _anchors_in_cells = False
    # (height, width) in input pixels, for the maps of strides 32, 16 and 8.
    _anchors = (((90, 116), (198, 156), (326, 373)),
                ((61, 30), (45, 62), (119, 59)),
                ((13, 10), (30, 16), (23, 33)))

    def __init__(self, n_fg_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None, *,
                 base_channels: int | None = None, insize: int = 416):
        check_insize(type(self).__name__, insize)
        weights = resolve_weights(type(self), n_fg_class, pretrained_model, base_channels)
        super().__init__()
        self.use_preset('visualize')
        with self.init_scope():
            self.extractor = Darknet53Extractor(weights.base_channels, insize)
        bodies = [darknet_conv(c, 2 * c, 3) for c in self.extractor.channels]
        head_channels = [2 * c for c in self.extractor.channels]
        self._resolve_n_fg_class(weights, (self.extractor, *bodies), head_channels)
        with self.init_scope():
            self.subnet = ChainList(*(
                Sequential(body, Convolution2D(c, self._n_anchors * (5 + self.n_fg_class), 1))
                for body, c in zip(bodies, head_channels)))
        self._set_default_bbox(self.extractor.grids, self._anchors)
        self._load_weights(weights, self._darknet_order(), [head[1] for head in self.subnet])

    def _darknet_order(self) -> list:
        """The links in the order of Darknet's ``yolov3.cfg``: each head right after the
        extractor's link that gives its map."""
        order = []
        heads = iter(self.subnet)
        for i, link in enumerate(self.extractor):
            order.append(link)
            if i in self.extractor.outputs:
                order.append(next(heads))
        return order

    def forward(self, x) -> tuple:
        """The offsets, objectness and class scores of every box.

        Args:
            x (Variable or array): float32 ``(B, 3, insize, insize)``, prepared images.

        Returns:
            tuple of three Variables: ``locs``, float32 ``(B, K, 4)``, ``(dy, dx, dh, dw)``;
            ``objs``, float32 ``(B, K)``; ``confs``, float32 ``(B, K, n_fg_class)``; ``K``
            is the boxes of the three maps, coarsest first, each by cell (row-major), then
            anchor.
        """
        ys = []
        for head, h in zip(self.subnet, self.extractor(x)):
            h = F.transpose(head(h), (0, 2, 3, 1))
            ys.append(F.reshape(h, (h.shape[0], -1, 5 + self.n_fg_class)))
        y = F.concat(ys)
        return y[:, :, :4], y[:, :, 4], y[:, :, 5:]

    def _class_probability(self, conf):
        return 1 / (1 + self.xp.exp(-conf))

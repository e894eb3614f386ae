"""YOLOv2 (ChainerCV's ``YOLOv2Base`` and ``YOLOv2``): one 1x1 convolution on the extractor's
map gives, for each cell and each of five anchors, the box offsets, the objectness and the
class scores (a softmax)."""

from __future__ import annotations

import os

import framework.functions as F
from framework.links import Convolution2D
from vision.models._registry import register_model
from vision.models.detection.yolo.darknet19 import Darknet19Extractor
from vision.models.detection.yolo.pretrained import resolve_weights
from vision.models.detection.yolo.yolo_base import YOLOBase, check_insize


class YOLOv2Base(YOLOBase):
    """The base of :class:`YOLOv2` and :class:`YOLOv2Tiny` (ChainerCV's ``YOLOv2Base``); a
    subclass gives ``_extractor`` (a class taking ``base_channels`` and ``insize``, with
    ``grid`` and ``channels``), ``_anchors`` (``(height, width)`` in cells) and
    ``_base_channels``.

    ``pretrained_model``:

    - ``'voc0712'``: ChainerCV's conversion of Darknet's weights trained on PASCAL VOC 2007
      and 2012 trainval (``n_fg_class`` 20 or None), fetched and verified through the
      manifest (``weights_manifest.json``);
    - the path of an NPZ file in ChainerCV's layout, the model at its root or under a path
      (``model/`` in a train chain's snapshot): its head fixes ``n_fg_class`` and its first
      convolution ``base_channels``;
    - the path of a Darknet ``.weights`` file (recognised by its content), converted as
      ChainerCV's ``examples/yolo/darknet2npz.py`` converts it: its length fixes
      ``n_fg_class`` unless given;
    - None: random initialization (``n_fg_class`` must be given).

    Args:
        n_fg_class (int or None): the number of foreground classes.
        pretrained_model (str, path or None): see above.
        base_channels (int or None): the width of the extractor (the channels of its first
            convolution, which the others scale); the weights fix it, else Darknet's.
        insize (int): the side of the square input, a multiple of 32: 416 (ChainerCV's) by
            default; Darknet's networks run at 320 to 608 as well.

    Attributes:
        n_fg_class (int): the number of foreground classes.
        weight_spec (vision.weights.WeightSpec or None): the manifest row of weights loaded
            by name.

    Raises:
        ValueError: ``n_fg_class`` is missing, it or ``base_channels`` contradicts the
            weights (the message names both), ``insize`` is not a positive multiple of 32,
            or a Darknet file's length is not the model's (the message gives both counts).
    """

    _extractor: type
    _anchors: tuple[tuple[float, float], ...]
    _base_channels: int
    _head_bias = 'subnet/b'
    _n_anchors = 5
    _anchors_in_cells = True

    def __init__(self, n_fg_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None, *,
                 base_channels: int | None = None, insize: int = 416):
        check_insize(type(self).__name__, insize)
        weights = resolve_weights(type(self), n_fg_class, pretrained_model, base_channels)
        super().__init__()
        self.use_preset('visualize')
        with self.init_scope():
            self.extractor = self._extractor(weights.base_channels, insize)
        self._resolve_n_fg_class(weights, (self.extractor,), (self.extractor.channels,))
        with self.init_scope():
            self.subnet = Convolution2D(self.extractor.channels,
                                        self._n_anchors * (5 + self.n_fg_class), 1)
        self._set_default_bbox((self.extractor.grid,), (self._anchors,))
        self._load_weights(weights, (self.extractor, self.subnet), (self.subnet,))

    def forward(self, x) -> tuple:
        """The offsets, objectness and class scores of every box.

        Args:
            x (Variable or array): float32 ``(B, 3, insize, insize)``, prepared images.

        Returns:
            tuple of three Variables: ``locs``, float32 ``(B, K, 4)``, ``(dy, dx, dh, dw)``;
            ``objs``, float32 ``(B, K)``; ``confs``, float32 ``(B, K, n_fg_class)``; ``K``
            is ``grid * grid * 5``, by cell (row-major), then anchor.
        """
        h = self.subnet(self.extractor(x))
        h = F.transpose(h, (0, 2, 3, 1))
        h = F.reshape(h, (h.shape[0], -1, 5 + self.n_fg_class))
        return h[:, :, :4], h[:, :, 4], h[:, :, 5:]

    def _class_probability(self, conf):
        xp = self.xp
        conf = xp.exp(conf - conf.max(axis=1, keepdims=True))
        return conf / conf.sum(axis=1, keepdims=True)


@register_model('yolo_v2')
class YOLOv2(YOLOv2Base):
    """YOLOv2 (Redmon and Farhadi, "YOLO9000: Better, Faster, Stronger", CVPR 2017),
    ChainerCV's ``YOLOv2``: :class:`Darknet19Extractor` (width 32), 13x13x5 boxes at 416.
    ``pretrained_model``, the arguments, attributes and errors are those of
    :class:`YOLOv2Base`.
    """

    _extractor = Darknet19Extractor
    _base_channels = 32
    _anchors = ((1.73145, 1.3221), (4.00944, 3.19275), (8.09892, 5.05587),
                (4.84053, 9.47112), (10.0071, 11.2364))

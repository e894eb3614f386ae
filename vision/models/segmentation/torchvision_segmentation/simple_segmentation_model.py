"""What torchvision's DeepLabV3 and FCN share (its ``_SimpleSegmentationModel``): a dilated
ResNet-50, a head at 1/8 of the input's size, an optional auxiliary head on ``res4``, the
scores resized to the input; torchvision's preprocessing in :meth:`predict`."""

from __future__ import annotations

import os
from collections.abc import Iterable

import numpy

import framework
import framework.functions as F
from framework import backend, initializers
from framework.graph.hybridizable import Hybridizable
from framework.links.link import Chain
from vision.models.classification.resnet.resnet import ResNet50
from vision.models.classification.resnet.torchvision_resnet import TORCHVISION_RESNET_KWARGS
from vision.models.segmentation.pretrained import prepare_segmentation_weights
from vision.models.segmentation.torchvision_segmentation.fcn_head import FCNHead
from vision.transforms import scale
from vision.utils.image import as_rgb_or_gray
from vision.weights import IMAGENET_TORCHVISION

# The width of torchvision's ResNet-50 (the channels of conv1) and of the published weights.
_BASE_CHANNELS = 64
# The shorter side that torchvision's transforms of the published weights resize images to.
RESIZE_SIZE = 520
_BN_KWARGS = TORCHVISION_RESNET_KWARGS['bn_kwargs']


class SimpleSegmentationModel(Hybridizable, Chain):
    """torchvision's ``_SimpleSegmentationModel`` on its dilated ResNet-50; the variants
    (:class:`~vision.models.DeepLabV3ResNet50`, :class:`~vision.models.FCNResNet50`) give the
    head.

    Calling the link gives the class scores (logits) at the input's size, torchvision's
    ``'out'``: ``extractor`` (:class:`~vision.models.ResNet50` with torchvision's layout,
    ``res4`` and ``res5`` dilating by 2 and 4 in place of striding, so that ``res5`` is 1/8
    of the input, rounded up), ``head`` on ``res5``, resized bilinearly to the input
    (``align_corners=False``). With ``aux_loss``, ``aux_head`` (an :class:`FCNHead` on
    ``res4``, torchvision's ``aux_classifier``) gives the auxiliary scores of training
    (:meth:`forward_with_aux`); :meth:`predict` never uses it.

    ``pretrained_model``:

    - ``'coco_with_voc_labels'``: torchvision's weights (``COCO_WITH_VOC_LABELS_V1``), trained
      on the images of COCO train2017 that hold the 20 categories of PASCAL VOC, background
      and those 20 (21 classes), converted from torchvision's checkpoint;
    - the path of such a checkpoint of torchvision (``deeplabv3_resnet50_coco-cd0a2569.pth``,
      a ``state_dict`` of its model, with or without ``aux_classifier``; taken with
      ImageNet's normalization) or of an NPZ file in this project's layout; its classifier
      fixes ``n_class`` and ``base_channels``;
    - None: random initialization (``n_class`` must be given).

    Args:
        n_class (int or None): the number of classes, background included.
        pretrained_model (str, path or None): see above.
        aux_loss (bool): add ``aux_head``; weights without one (a checkpoint saved without
            ``aux_classifier``) then fail to load. Weights with one load without it too.
        resize_size (int or None): the length :meth:`predict` resizes the shorter side of each
            image to, as torchvision's transforms of the published weights do (520); None: the
            network sees each image at its own size.
        initialW (callable or None): the initializer of the convolutions (default: zero when
            weights are loaded, the links' own else).
        base_channels (int or None): the channels of the ResNet's ``conv1``, which every other
            layer follows, the heads too (64 in torchvision's networks; smaller for tests and
            small problems); the weights fix it.

    Attributes:
        mean (numpy.ndarray): float32 ``(3, 1, 1)``, ImageNet's mean in 0-255 units, subtracted
            from the images (the weights' ``1 / std`` is folded into ``conv1``).
        resize_size (int or None): see above.
        weight_spec (vision.weights.WeightSpec or None): the manifest row of weights loaded by
            name.

    Raises:
        ValueError: ``n_class`` is missing; it or ``base_channels`` contradicts the weights
            (the message names both); ``resize_size`` is not a positive int or None.
    """

    task = 'semantic_segmentation'
    weight_spec = None
    #: the converter of torchvision's checkpoints
    _torch_converter: str
    #: the channels of the head's classifier's input per channel of ``conv1``
    _head_width: int

    def __init__(self, n_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None, *, aux_loss: bool = False,
                 resize_size: int | None = RESIZE_SIZE, initialW=None,
                 base_channels: int | None = None):
        name = self.model_name
        weights = prepare_segmentation_weights(
            name, n_class, pretrained_model, 'head/classifier/W',
            (self._torch_converter, 'classifier.4.weight'))
        fixed = weights.fixed_kwargs(lambda channels: channels // self._head_width,
                                     _BASE_CHANNELS)
        base = weights.argument(name, 'base_channels', base_channels,
                                fixed.get('base_channels')) or _BASE_CHANNELS
        if resize_size is not None and (isinstance(resize_size, bool) or not isinstance(
                resize_size, (int, numpy.integer)) or resize_size < 1):
            raise ValueError(f'{name}: resize_size must be a positive int or None, but got '
                             f'{resize_size!r}')
        if initialW is None and weights.pretrained is not None:
            initialW = initializers.Zero()  # sampling takes time; the weights overwrite it
        super().__init__()
        self.resize_size = resize_size
        self.mean = IMAGENET_TORCHVISION.model_mean()
        with self.init_scope():
            self.extractor = ResNet50(n_class=1, initialW=initialW, base_channels=base,
                                      replace_stride_with_dilation=(False, True, True),
                                      **TORCHVISION_RESNET_KWARGS)
            self.extractor.pick = ('res4', 'res5')
            self.extractor.remove_unused()
            self.head = self._make_head(32 * base, weights.n_class, base, initialW, _BN_KWARGS)
            if aux_loss:
                self.aux_head = FCNHead(16 * base, weights.n_class, initialW, _BN_KWARGS)
        if weights.pretrained is not None:
            weights.pretrained.load(self)

    def _make_head(self, in_channels: int, n_class: int, base_channels: int, initialW,
                   bn_kwargs: dict) -> Chain:
        """The head on ``res5`` (``in_channels`` channels)."""
        raise NotImplementedError

    @property
    def n_class(self) -> int:
        """The number of classes, background included."""
        return self.head.classifier.out_channels

    def forward(self, x):
        """The class scores of every pixel, torchvision's ``'out'``.

        Args:
            x (Variable or array): float32 ``(B, 3, H, W)``, RGB images with :attr:`mean`
                subtracted.

        Returns:
            Variable: float32 ``(B, n_class, H, W)``, the logits.
        """
        _, res5 = self.extractor(x)
        return _upsample(self.head(res5), x.shape[2:])

    def forward_with_aux(self, x) -> tuple:
        """The class scores and the auxiliary head's, torchvision's ``'out'`` and ``'aux'``,
        for training with ``aux_loss``.

        Args:
            x (Variable or array): float32 ``(B, 3, H, W)``, RGB images with :attr:`mean`
                subtracted.

        Returns:
            tuple of two Variables: float32 ``(B, n_class, H, W)`` each.

        Raises:
            ValueError: the model was built without ``aux_loss``.
        """
        if not hasattr(self, 'aux_head'):
            raise ValueError(f'{self.model_name}.forward_with_aux: the model has no auxiliary '
                             'head; build it with aux_loss=True')
        res4, res5 = self.extractor(x)
        size = x.shape[2:]
        return _upsample(self.head(res5), size), _upsample(self.aux_head(res4), size)

    def predict(self, imgs: Iterable) -> list[numpy.ndarray]:
        """Labels every pixel of each image, as torchvision's transforms of the weights
        prepare it.

        Each image is resized (bilinear, antialiased, as torchvision's ``resize``) so that its
        shorter side is :attr:`resize_size` (unless None), the mean subtracted; the network
        runs through :meth:`infer` (a static graph after ``hybridize()``) on one image at a
        time; its scores, at the resized image's size, are resized (bilinear,
        ``align_corners=False``) back to the image's size, and each pixel gets the class of
        the highest.

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB (``C = 3``) or
                grayscale (``C = 1``, given as three equal channels), values 0-255, of any
                size and real dtype.

        Returns:
            list of numpy.ndarray: one int32 label map ``(H, W)`` per image, in
            ``[0, n_class - 1]`` (0 is the background of the published weights).

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels.
        """
        labels = []
        for i, img in enumerate(imgs):
            img = as_rgb_or_gray(f'{type(self).__name__}.predict', f'imgs[{i}]', img)
            size = img.shape[1:]
            x = img if self.resize_size is None else scale(img, self.resize_size)
            scores = self.infer(self.xp.asarray((x - self.mean)[None]))
            if scores.shape[2:] != size:
                scores = _upsample(scores, size)
            labels.append(backend.to_cpu(scores.array[0].argmax(axis=0)).astype(numpy.int32))
        return labels


def _upsample(x, size: tuple[int, int]) -> framework.Variable:
    """Bilinear resizing as torchvision's ``interpolate(..., align_corners=False)``."""
    return F.resize_images(x, tuple(size), align_corners=False)


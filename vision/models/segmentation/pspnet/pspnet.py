"""PSPNet (ChainerCV's ``chainercv.experimental.links.model.pspnet.PSPNet``): a dilated ResNet,
the pyramid pooling module and a head, run by sliding window over large images."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable

import numpy

import framework.functions as F
from framework import backend, initializers
from framework.graph.hybridizable import Hybridizable
from framework.links import Conv2DBNActiv, Convolution2D
from framework.links.link import Chain
from framework.serializers import load_npz
from vision.models.segmentation.pretrained import prepare_segmentation_weights
from vision.models.segmentation.pspnet.dilated_resnet import DilatedResNet
from vision.models.segmentation.pspnet.pyramid_pooling_module import PyramidPoolingModule
from vision.models.segmentation.pspnet.sliding_windows import sliding_windows
from vision.transforms import resize_contain
from vision.utils.image import as_rgb_or_gray
from vision.weights import WeightSpec
from vision.weights.integrity import reporting_corruption

# RGB: ImageNet's channel means, as PSPNet's authors subtract them.
_MEAN = numpy.array((123.68, 116.779, 103.939), numpy.float32)[:, None, None]
# The key of the classifier's filter, (n_class, 8 * base_channels, 1, 1).
_CLASSIFIER = 'head_conv2/W'
_PYRAMIDS = (6, 3, 2, 1)
_INPUT_SIZE = (713, 713)
_BASE_CHANNELS = 64
# The tiles of the sliding window are this fraction of input_size apart.
_STRIDE_RATE = 2 / 3


class PSPNet(Hybridizable, Chain):
    """Pyramid Scene Parsing Network (Zhao et al., CVPR 2017), ChainerCV's ``PSPNet``; the
    variants (:class:`~vision.models.PSPNetResNet50`, ``PSPNetResNet101``) set the depth of the
    extractor.

    Calling the link gives the class scores (logits) at the input's size: ``extractor`` (a
    :class:`DilatedResNet`), ``ppm`` (:class:`PyramidPoolingModule`), ``head_conv1`` (3x3,
    batch normalization, ReLU), ``head_conv2`` (1x1), resized bilinearly to the input.
    :meth:`predict` runs it through :meth:`infer` (a static graph after ``hybridize()``) on
    tiles of ``input_size``.

    ``pretrained_model``:

    - ``'cityscapes'``: ChainerCV's weights trained on Cityscapes' fine train split (19
      classes, ``input_size`` 713x713), fetched and verified through the manifest;
    - ``'ade20k'``: ChainerCV's weights trained on ADE20K's scene parsing train split (150
      classes, ``input_size`` 473x473);
    - ``'imagenet'``: ChainerCV's dilated ResNet trained on ImageNet, in the extractor alone
      (``n_class`` must be given; the rest is initialized, to be trained);
    - the path of an NPZ file in ChainerCV's layout, the model at its root or under a path;
      its ``head_conv2`` fixes ``n_class`` and ``base_channels``;
    - None: random initialization (``n_class`` must be given).

    Args:
        n_class (int or None): the number of classes.
        pretrained_model (str, path or None): see above.
        input_size (int, pair of int or None): ``(H, W)``, the size of the tiles (an int: a
            square); the weights' (713x713 for ``'cityscapes'``), else 713x713. The pyramid
            pooling's windows are made for it.
        initialW (callable or None): the initializer of the convolutions (default: zero when
            weights are loaded, the links' own else).
        base_channels (int or None): the channels of the extractor's ``conv1_1``, which every
            other layer follows (64 in the published networks; beyond ChainerCV, smaller for
            tests and small problems); the weights fix it (a file by its ``head_conv2``, a
            manifest row by its ``model_kwargs``, else 64).

    Attributes:
        mean (numpy.ndarray): float32 ``(3, 1, 1)``, subtracted from RGB 0-255 images.
        input_size (tuple of int): ``(H, W)``.
        weight_spec (vision.weights.WeightSpec or None): the manifest row of weights loaded by
            name.

    Raises:
        ValueError: ``n_class`` is missing; it, ``input_size`` or ``base_channels``
            contradicts the weights (the message names both); a side of ``input_size`` is
            less than 48.
    """

    task = 'semantic_segmentation'
    weight_spec = None
    _n_layer: int

    def __init__(self, n_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None, input_size=None,
                 initialW=None, *, base_channels: int | None = None):
        name = self.model_name
        weights = prepare_segmentation_weights(name, n_class, pretrained_model, _CLASSIFIER)
        # head_conv2 takes 8 * base_channels channels
        fixed = weights.fixed_kwargs(lambda channels: channels // 8, _BASE_CHANNELS)
        if 'input_size' in fixed:
            fixed['input_size'] = _pair(name, fixed['input_size'])
        self.input_size = weights.argument(
            name, 'input_size', None if input_size is None else _pair(name, input_size),
            fixed.get('input_size')) or _INPUT_SIZE
        base = weights.argument(name, 'base_channels', base_channels,
                                fixed.get('base_channels')) or _BASE_CHANNELS
        pretrained = weights.pretrained
        if initialW is None and pretrained is not None and not weights.extractor_only:
            initialW = initializers.Zero()  # sampling takes time; the weights overwrite it
        super().__init__()
        self.mean = _MEAN
        feat_size = (self.input_size[0] // 8, self.input_size[1] // 8)
        with self.init_scope():
            self.extractor = DilatedResNet(self._n_layer, initialW, base)
            channels = self.extractor.channels
            self.ppm = PyramidPoolingModule(channels, feat_size, _PYRAMIDS, initialW=initialW)
            self.head_conv1 = Conv2DBNActiv(2 * channels, channels // 4, 3, 1, 1,
                                            initialW=initialW)
            self.head_conv2 = Convolution2D(channels // 4, weights.n_class, 1, 1, 0,
                                            initialW=initialW)
        if weights.extractor_only:
            self._load_extractor(pretrained.spec)
        elif pretrained is not None:
            pretrained.load(self)

    def _load_extractor(self, spec: WeightSpec) -> None:
        """Loads the weights of a :class:`DilatedResNet` (ChainerCV's ``'imagenet'``) into
        the extractor; the pyramid pooling and the head keep their initial values, to be
        trained (as ChainerCV's ``PSPNet(pretrained_model='imagenet')``)."""
        path = spec.local_path()
        with reporting_corruption(spec, path, 'npz'):
            load_npz(path, self.extractor)
        self.weight_spec = spec

    @property
    def n_class(self) -> int:
        """The number of classes."""
        return self.head_conv2.out_channels

    def forward(self, x):
        """The class scores of every pixel.

        Args:
            x (Variable or array): float32 ``(B, 3, H, W)``, images with :attr:`mean`
                subtracted.

        Returns:
            Variable: float32 ``(B, n_class, H, W)``, the logits.
        """
        _, res5 = self.extractor(x)
        h = self.head_conv2(self.head_conv1(self.ppm(res5)))
        return F.resize_images(h, x.shape[2:])

    def predict(self, imgs: Iterable) -> list[numpy.ndarray]:
        """Labels every pixel of each image, as ChainerCV does.

        The mean is subtracted. An image whose longer side exceeds the longer side of
        ``input_size`` is cut into overlapping tiles of ``input_size``, ``2/3`` of it apart
        (rounded up), centred on the image, the tiles that stick out padded with zeros (the
        mean colour); each tile's class probabilities (softmax), averaged with those of the
        tile flipped left to right, are summed over the tiles and divided by the number of
        tiles that cover each pixel. Another image is padded to ``input_size`` at its centre
        (shrunk first to fit it, where ``input_size`` is not square and the image does not
        fit), and its averaged probabilities are cut out and resized (bilinear) back to the
        image's size. Tiles run one at a time, so the features of only one are held.

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB (``C = 3``) or
                grayscale (``C = 1``, given as three equal channels), values 0-255, of any
                size and real dtype.

        Returns:
            list of numpy.ndarray: one int32 label map ``(H, W)`` per image, in
            ``[0, n_class - 1]``.

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels.
        """
        labels = []
        for i, img in enumerate(imgs):
            img = as_rgb_or_gray('PSPNet.predict', f'imgs[{i}]', img)
            scores = self._scores(img - self.mean)
            labels.append(backend.to_cpu(scores.argmax(axis=0)).astype(numpy.int32))
        return labels

    def _scores(self, img: numpy.ndarray):
        """The averaged probabilities ``(n_class, H, W)`` of an image ``(3, H, W)`` with the
        mean subtracted, on the model's device."""
        size = img.shape[1:]
        if max(size) <= max(self.input_size):
            tile, param = resize_contain(img, self.input_size, return_param=True)
            top, left = param['y_offset'], param['x_offset']
            height, width = param['scaled_size']
            probs = self._flipped_sum(tile)[:, top:top + height, left:left + width] / 2
            return F.resize_images(probs[None], size).array[0]
        stride = tuple(math.ceil(s * _STRIDE_RATE) for s in self.input_size)
        xp = self.xp
        total = xp.zeros((self.n_class,) + size, numpy.float32)
        counts = xp.zeros(size, numpy.float32)
        tile = numpy.zeros((3,) + self.input_size, numpy.float32)
        for y_slice, x_slice, crop_y, crop_x in sliding_windows(size, self.input_size, stride):
            tile[...] = 0
            tile[:, crop_y, crop_x] = img[:, y_slice, x_slice]
            total[:, y_slice, x_slice] += self._flipped_sum(tile)[:, crop_y, crop_x]
            counts[y_slice, x_slice] += 2
        return total / counts

    def _flipped_sum(self, tile: numpy.ndarray):
        """The class probabilities of a tile ``(3, h, w)`` plus those of the tile flipped
        left to right (flipped back): ``(n_class, h, w)`` on the model's device."""
        probs = []
        for x in (tile, tile[:, :, ::-1]):
            logits = self.infer(self.xp.asarray(numpy.ascontiguousarray(x)[None]))
            probs.append(F.softmax(logits).array[0])
        return probs[0] + probs[1][:, :, ::-1]


def _pair(name: str, input_size) -> tuple[int, int]:
    """``input_size`` as ``(H, W)``: each side at least 8 times the finest pyramid, so that
    each of its cells pools a window of one feature at least."""
    least = 8 * max(_PYRAMIDS)
    pair = (input_size, input_size) if isinstance(input_size, (int, numpy.integer)) \
        else tuple(input_size)
    if len(pair) != 2 or any(isinstance(s, bool) or not isinstance(s, (int, numpy.integer))
                             or s < least for s in pair):
        raise ValueError(f'{name}: input_size must be an int or a pair (H, W) of ints of at '
                         f'least {least} (8 times the finest pyramid, {max(_PYRAMIDS)}), but '
                         f'got {input_size!r}')
    return int(pair[0]), int(pair[1])

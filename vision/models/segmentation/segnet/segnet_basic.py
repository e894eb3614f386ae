"""SegNet Basic (ChainerCV's ``SegNetBasic``): an encoder of four convolutions, each followed
by a max pooling, and a decoder that puts each value back where its pooling found the maximum."""

from __future__ import annotations

import os
from collections.abc import Iterable

import numpy

import framework
import framework.functions as F
from framework import backend, initializers
from framework.graph import Hybridizable
from framework.links import BatchNormalization, Convolution2D
from framework.links.link import Chain
from vision.models._registry import register_model
from vision.models.segmentation.pretrained import prepare_segmentation_weights
from vision.transforms import resize
from vision.utils.image import as_rgb_or_gray

# The key of the classifier's filter, (n_class, base_channels, 1, 1): the weights' classes
# and width.
_CLASSIFIER = 'conv_classifier/W'
# The width of the authors' network and of the published weights.
_BASE_CHANNELS = 64
_DEPTH = 4
_KSIZE = 7


@register_model('segnet_basic')
class SegNetBasic(Hybridizable, Chain):
    """SegNet Basic (Badrinarayanan et al., "SegNet: A Deep Convolutional Encoder-Decoder
    Architecture for Image Segmentation", PAMI 2017), ChainerCV's ``SegNetBasic``.

    The image (RGB, 0-255, no mean subtracted) is normalized across channels (local response
    normalization, Caffe's parameters); four stages ``conv{i}``, ``conv{i}_bn``, ReLU and a 2x2
    max pooling halve its size (rounding up); four stages unpool (:func:`upsampling_2d` with
    the pooling's indices: each value goes back to where its window's maximum was, the rest
    is zero), ``conv_decode{i}`` and ``conv_decode{i}_bn`` double it back; ``conv_classifier``
    (1x1) gives the class scores. The convolutions are 7x7 with ``base_channels`` channels.

    ``pretrained_model``:

    - ``'camvid'``: ChainerCV's weights trained on CamVid's train split (11 classes), fetched
      and verified through the manifest (``weights_manifest.json``);
    - the path of an NPZ file in ChainerCV's layout, the model at its root or under a path
      (``predictor/`` in a :class:`PixelwiseSoftmaxClassifier`'s file); its
      ``conv_classifier`` fixes ``n_class`` and ``base_channels``;
    - None: random initialization (``n_class`` must be given).

    ``hybridize()`` runs the network as a static graph (the convolutions channels-last with
    their batch normalizations and activations fused in); the indices of each pooling are a
    value of the graph, computed for every image, which the unpooling reads.

    Args:
        n_class (int or None): the number of classes.
        pretrained_model (str, path or None): see above.
        initialW (callable or None): the initializer of the convolutions (default: He's
            normal).
        base_channels (int or None): the channels of every convolution but the classifier:
            64, the authors', by default (beyond ChainerCV: 8 gives a small model for tests
            and small problems); weights fix it (a file by its ``conv_classifier``, a
            manifest row by its ``model_kwargs``, else 64).

    Attributes:
        n_class (int): the number of classes.
        weight_spec (vision.weights.WeightSpec or None): the manifest row of weights loaded by
            name.

    Raises:
        ValueError: ``n_class`` is missing, or it or ``base_channels`` contradicts the
            weights (the message names both).
    """

    task = 'semantic_segmentation'
    weight_spec = None

    def __init__(self, n_class: int | None = None,
                 pretrained_model: str | os.PathLike | None = None, initialW=None, *,
                 base_channels: int | None = None):
        weights = prepare_segmentation_weights(self.model_name, n_class, pretrained_model,
                                               _CLASSIFIER)
        fixed = weights.fixed_kwargs(lambda channels: channels, _BASE_CHANNELS)
        width = weights.argument(self.model_name, 'base_channels', base_channels,
                                 fixed.get('base_channels')) or _BASE_CHANNELS
        if initialW is None:
            initialW = initializers.HeNormal()
        super().__init__()
        self.n_class = n_class = weights.n_class

        def conv(in_channels, out_channels, ksize=_KSIZE):
            return Convolution2D(in_channels, out_channels, ksize, 1, ksize // 2,
                                 nobias=True, initialW=initialW)

        with self.init_scope():
            for i in range(1, _DEPTH + 1):
                setattr(self, f'conv{i}', conv(3 if i == 1 else width, width))
                setattr(self, f'conv{i}_bn', BatchNormalization(width, initial_beta=0.001))
            for i in range(_DEPTH, 0, -1):
                setattr(self, f'conv_decode{i}', conv(width, width))
                setattr(self, f'conv_decode{i}_bn', BatchNormalization(width, initial_beta=0.001))
            self.conv_classifier = Convolution2D(width, n_class, 1, 1, 0, initialW=initialW)
        if weights.pretrained is not None:
            weights.pretrained.load(self)

    def forward(self, x) -> framework.Variable:
        """The class scores of every pixel.

        Args:
            x (Variable or array): float32 ``(B, 3, H, W)``, RGB images, 0-255.

        Returns:
            Variable: float32 ``(B, n_class, H', W')``: ``H' = H`` and ``W' = W`` where they
            are multiples of 16; else each is the size the poolings and unpoolings give, at
            least ``H`` (``W``), which :meth:`predict` resizes back.
        """
        h = F.local_response_normalization(x, 5, 1, 1e-4 / 5, 0.75)
        indexes = []
        for i in range(1, _DEPTH + 1):
            h = F.relu(self[f'conv{i}_bn'](self[f'conv{i}'](h)))
            h, index = F.max_pooling_2d(h, 2, 2, return_indices=True)
            indexes.append(index)
        for i in range(_DEPTH, 0, -1):
            h = _unpool(h, indexes[i - 1])
            h = self[f'conv_decode{i}_bn'](self[f'conv_decode{i}'](h))
        return self.conv_classifier(h)

    def predict(self, imgs: Iterable) -> list[numpy.ndarray]:
        """Labels every pixel of each image.

        The network runs on one image at a time; where its scores are not of the image's
        size (sides that are not multiples of 16), they are resized to it (bilinear), as
        ChainerCV does.

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB (``C = 3``) or
                grayscale (``C = 1``, given to the network as three equal channels), values
                0-255, of any size and real dtype.

        Returns:
            list of numpy.ndarray: one int32 label map ``(H, W)`` per image, in
            ``[0, n_class - 1]``.

        Raises:
            ValueError: an image is not ``(C, H, W)`` with 1 or 3 channels.
        """
        labels = []
        for i, img in enumerate(imgs):
            img = as_rgb_or_gray('SegNetBasic.predict', f'imgs[{i}]', img)
            size = img.shape[1:]
            x = numpy.ascontiguousarray(numpy.broadcast_to(img, (3,) + size)[None])
            score = backend.to_cpu(self.infer(self.xp.asarray(x)).array[0])
            if score.shape[1:] != size:
                score = resize(score, size)
            labels.append(numpy.argmax(score, axis=0).astype(numpy.int32))
        return labels


def _unpool(x, indexes) -> framework.Variable:
    """Upsamples ``x`` (B, C, h, w) to (B, C, 2h, 2w) with the indices of a 2x2 pooling, both
    first cut to the smaller of their sizes (a pooling that covered an odd side gives one more
    row or column than the unpooling below it needs)."""
    h = min(x.shape[2], indexes.shape[2])
    w = min(x.shape[3], indexes.shape[3])
    if x.shape[2:] != (h, w):
        x = x[:, :, :h, :w]
    if indexes.shape[2:] != (h, w):
        # A framework function, so that a traced graph takes the cut from the pooling's value.
        indexes = F.get_item(indexes, (slice(None), slice(None), slice(h), slice(w))).array
    return F.upsampling_2d(x, indexes, 2, 2, outsize=(2 * h, 2 * w))

"""DeepLab v3+ (ChainerCV's ``DeepLabV3plus``): an extractor, the atrous spatial pyramid
pooling and a decoder, run on images padded to a least size, at several scales and flipped."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy

import framework.functions as F
from framework import backend
from framework.graph.hybridizable import Hybridizable
from framework.links.link import Chain
from vision.transforms import resize
from vision.utils.image import as_rgb_or_gray


class DeepLabV3plus(Hybridizable, Chain):
    """DeepLab v3+ (Chen et al., "Encoder-Decoder with Atrous Separable Convolution for
    Semantic Image Segmentation", ECCV 2018), ChainerCV's ``DeepLabV3plus``; the variant
    :class:`~vision.models.DeepLabV3plusXception65` fills in the parts.

    Calling the link gives the class scores (logits) at the resolution of the low-level
    features: ``decoder(lowlevel, aspp(highlevel))`` where ``lowlevel, highlevel =
    feature_extractor(x)``. :meth:`predict` runs it through :meth:`infer` (a static graph
    after ``hybridize()``).

    Args:
        feature_extractor (Link): returns ``(lowlevel, highlevel)`` features; its ``mean``
            (``(3, 1, 1)``) is the value images are padded with.
        aspp (Link): pools the high-level features.
        decoder (Link): ``decoder(lowlevel, pooled)`` gives the logits.
        min_input_size (int or pair of int): ``(H, W)``, the least size of the network's
            input (an int: a square); smaller images are padded.
        scales (sequence of float): the scales an image is resized by, the probabilities of
            each averaged.
        flip (bool): average with the probabilities of each scaled image flipped left to
            right too.

    Attributes:
        min_input_size (tuple of int): ``(H, W)``.
        scales (tuple of float): as given.
        flip (bool): as given.

    Raises:
        ValueError: ``min_input_size`` is not a positive int or a pair of them, or ``scales``
            is empty or holds a value that is not a positive number.
    """

    task = 'semantic_segmentation'
    weight_spec = None

    def __init__(self, feature_extractor, aspp, decoder, min_input_size,
                 scales: Sequence[float] = (1.0,), flip: bool = False):
        fname = type(self).__name__
        self.min_input_size = size_pair(fname, 'min_input_size', min_input_size)
        self.scales = _scales(fname, scales)
        self.flip = bool(flip)
        super().__init__()
        with self.init_scope():
            self.feature_extractor = feature_extractor
            self.aspp = aspp
            self.decoder = decoder

    def prepare(self, image: numpy.ndarray) -> numpy.ndarray:
        """Pads an image to :attr:`min_input_size` and scales it to [-1, 1], as ChainerCV
        does.

        The image is put at the top left of an array of at least :attr:`min_input_size`
        filled with the extractor's mean (127.5, which scales to 0); the array is then
        divided by 127.5, less 1.

        Args:
            image (numpy.ndarray): float32 ``(C, H, W)``, RGB (``C = 3``) or grayscale
                (``C = 1``, given as three equal channels), values 0-255.

        Returns:
            numpy.ndarray: float32 ``(3, max(H, min_H), max(W, min_W))``.
        """
        _, H, W = image.shape
        size = (max(self.min_input_size[0], H), max(self.min_input_size[1], W))
        padded = numpy.zeros((3,) + size, numpy.float32) + self.feature_extractor.mean
        padded[:, :H, :W] = image
        return padded / 127.5 - 1.0

    def forward(self, x):
        """The class scores at a quarter of the input's resolution.

        Args:
            x (Variable or array): float32 ``(B, 3, H, W)``, prepared images
                (:meth:`prepare`).

        Returns:
            Variable: float32 ``(B, n_class, H', W')``, the logits; for Xception65 ``H' =
            ceil(H / 4)``, ``W' = ceil(W / 4)`` (rounded up at each stride).
        """
        lowlevel, highlevel = self.feature_extractor(x)
        return self.decoder(lowlevel, self.aspp(highlevel))

    def predict(self, imgs: Iterable) -> list[numpy.ndarray]:
        """Labels every pixel of each image, as ChainerCV does.

        For each of :attr:`scales` (and each flip, when :attr:`flip`), the image is resized
        by the scale (bilinear, sides rounded down, at least 1), flipped left to right,
        prepared (:meth:`prepare`: padded at the bottom and right to :attr:`min_input_size`),
        run through the network; the class probabilities (softmax) are resized to the
        prepared input (bilinear, corners aligned), cut to the image, resized back to the
        image's size (bilinear) and flipped back. The label is the class of the highest
        mean probability. (ChainerCV divides the sum by a wrong count of the runs, which
        changes no label.)

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
        flips = (False, True) if self.flip else (False,)
        labels = []
        for i, img in enumerate(imgs):
            img = as_rgb_or_gray(f'{type(self).__name__}.predict', f'imgs[{i}]', img)
            probs = sum(self._probabilities(img, scale, flip)
                        for scale in self.scales for flip in flips)
            labels.append(numpy.argmax(probs, axis=0).astype(numpy.int32))
        return labels

    def _probabilities(self, img: numpy.ndarray, scale: float, flip: bool) -> numpy.ndarray:
        """The class probabilities ``(n_class, H, W)`` of an image ``(C, H, W)`` resized by
        ``scale`` and flipped left to right when ``flip``, brought back to the image."""
        size = img.shape[1:]
        if flip:
            img = img[:, :, ::-1]
        if scale != 1.0:
            img = resize(img, tuple(max(int(s * scale), 1) for s in size))
        h, w = img.shape[1:]
        x = self.prepare(img)
        logits = self.infer(self.xp.asarray(x[None]))
        probs = F.resize_images(F.softmax(logits), x.shape[1:]).array[0, :, :h, :w]
        probs = backend.to_cpu(probs)
        if scale != 1.0:
            probs = resize(probs, size)
        return probs[:, :, ::-1] if flip else probs


def size_pair(fname: str, name: str, size) -> tuple[int, int]:
    """``size`` (an int, or a pair of ints) as a pair ``(H, W)`` of positive ints.

    Raises:
        ValueError: it is neither (the message names ``fname`` and ``name``).
    """
    pair = (size, size) if isinstance(size, (int, numpy.integer)) else size
    if (not isinstance(pair, (tuple, list)) or len(pair) != 2
            or any(isinstance(s, bool) or not isinstance(s, (int, numpy.integer)) or s < 1
                   for s in pair)):
        raise ValueError(f'{fname}: {name} must be a positive int or a pair (H, W) of them, '
                         f'but got {size!r}')
    return int(pair[0]), int(pair[1])


def _scales(fname: str, scales) -> tuple[float, ...]:
    """``scales`` as a non-empty tuple of positive floats."""
    values = tuple(scales) if isinstance(scales, (tuple, list)) else ()
    if not values or any(isinstance(s, bool) or not isinstance(s, (int, float, numpy.number))
                         or not s > 0 for s in values):
        raise ValueError(f'{fname}: scales must be a non-empty sequence of positive numbers, '
                         f'but got {scales!r}')
    return tuple(float(s) for s in values)

"""FeaturePredictor: ``predict(imgs)`` for a feature extractor or classifier (ChainerCV's)."""

from __future__ import annotations

import warnings
from collections.abc import Iterable

import numpy

from framework import backend
from framework.graph.hybridizable import Hybridizable
from framework.links import Chain
from vision.transforms import center_crop, resize, scale, ten_crop
from vision.utils.image import as_image

_CROPS = ('center', '10')


class FeaturePredictor(Hybridizable, Chain):
    """Adds :meth:`predict` to a model that maps a batch of images to features (for a
    classifier of this package, the class probabilities).

    :meth:`predict` resizes each image (when ``scale_size`` is given), crops it (the centre,
    or ten crops: the centre, the four corners and their mirror images), subtracts the mean,
    multiplies by ``scale`` (when there is one), runs the model on all the crops at once
    (``train`` off, without backpropagation) and averages the features of the crops of each
    image.

    Example:

        >>> model = FeaturePredictor(ResNet50(pretrained_model='imagenet'), 224, 256)
        >>> probs = model.predict([img])           # (1, 1000) array
        >>> model.extractor.pick = ['res5', 'fc6']
        >>> res5, fc6 = model.predict([img])       # two arrays, one row per image

    Args:
        extractor: the model (its ``mean`` is used when ``mean`` is None).
        crop_size (int or tuple of int): the size of the crops, ``(H, W)`` or one int for both.
        scale_size (int, tuple of int or None): None: no resizing; an int: resize so that the
            shorter side has this length; a pair: resize to ``(H, W)``.
        crop (str): ``'center'`` or ``'10'``.
        mean (numpy.ndarray): ``(C, 1, 1)`` (or broadcastable), subtracted from the crops
            (default: ``extractor.mean``).
        scale (float, numpy.ndarray or None): multiplies the crops after the mean is
            subtracted (default: ``extractor.scale`` if the model has one, else no scaling).
    """

    def __init__(self, extractor, crop_size, scale_size=None, crop: str = 'center', mean=None,
                 scale=None):
        super().__init__()
        _check_crop('FeaturePredictor', crop)
        self.crop_size = _pair(crop_size)
        self.scale_size = scale_size
        self.crop = crop
        with self.init_scope():
            self.extractor = extractor
        self.mean = extractor.mean if mean is None else mean
        self.scale = getattr(extractor, 'scale', None) if scale is None else scale

    def _prepare(self, img: numpy.ndarray) -> numpy.ndarray:
        return _crops(img, self.crop_size, self.scale_size, self.crop, self.mean, self.scale)

    def predict(self, imgs: Iterable[numpy.ndarray]):
        """Computes the features of images.

        Args:
            imgs (iterable of numpy.ndarray): images ``(C, H, W)``, RGB, values 0-255, of any
                size at least the crop size (or any size with ``scale_size``).

        Returns:
            numpy.ndarray, or tuple of them: the features of the images stacked, ``(B, ...)``
            (``(B, n_class)`` float32 probabilities for a classifier), each averaged over its
            crops, as ChainerCV's; when the model returns several features (``pick`` a
            sequence), a tuple with one such array per feature. No images give an empty
            ``(0,)`` array.
        """
        return predict_features(self, imgs, self.crop_size, self.scale_size, self.crop,
                                self.mean, self.scale)

    def hybridized_link(self):
        """The extractor: :meth:`hybridize` makes it run as a static graph."""
        return self.extractor


class ClassifierPredictMixin(Hybridizable):
    """``predict(imgs)`` of the zoo's classifiers: :class:`FeaturePredictor`'s, with the
    resize, crop size and crop of the loaded weights (:attr:`weight_spec`), or ImageNet's
    (shorter side resized to 256, centre crop of 224) for a model without named weights."""

    task = 'classification'

    def predict(self, imgs: Iterable[numpy.ndarray], crop: str | None = None):
        """The class probabilities of images (or the picked features).

        Args:
            imgs (iterable of numpy.ndarray): images ``(3, H, W)``, RGB, values 0-255.
            crop (str): ``'center'`` or ``'10'``; the weights' when None.

        Returns:
            list of numpy.ndarray: ``(n_class,)`` float32 probabilities per image (a tuple of
            such lists, one per layer, when several layers are picked).
        """
        spec = getattr(self, 'weight_spec', None)
        pre = spec.preprocessing if spec is not None else None
        crop_size, scale_size = (pre.crop_size, pre.resize) if pre is not None else (224, 256)
        crop = crop or (pre.crop if pre is not None else 'center')
        _check_crop('predict', crop)
        features = predict_features(self, imgs, _pair(crop_size), scale_size, crop, self.mean,
                                    getattr(self, 'scale', None))
        if isinstance(features, tuple):
            return tuple(list(f) for f in features)
        return list(features)


def _check_crop(fname: str, crop) -> None:
    if crop not in _CROPS:
        raise ValueError(f"{fname}: crop must be 'center' or '10', but got {crop!r}")


def _pair(size) -> tuple[int, int]:
    return (size, size) if isinstance(size, int) else tuple(size)


def _crops(img: numpy.ndarray, crop_size, scale_size, crop, mean, scale_) -> numpy.ndarray:
    """The crops of one ``(C, H, W)`` image (cast to float32 first, as ChainerCV does) with the
    mean subtracted (and scaled): ``(n_crop, C, crop_H, crop_W)`` float32."""
    mean_shape = numpy.shape(mean)
    n_channel = mean_shape[0] if len(mean_shape) == 3 and mean_shape[0] > 1 else None
    img = as_image('predict', 'img', img, n_channel)
    if scale_size is not None:
        if isinstance(scale_size, int):
            img = scale(img, size=scale_size)
        else:
            img = resize(img, size=tuple(scale_size))
    if crop == '10':
        crops = ten_crop(img, crop_size)
    else:
        crops = center_crop(img, crop_size)[None]
    crops = crops - numpy.asarray(mean)[None]
    if scale_ is not None:
        crops = crops * numpy.asarray(scale_)
    return crops.astype(numpy.float32)


def predict_features(predictor: Hybridizable, imgs, crop_size, scale_size, crop, mean, scale_):
    """Runs ``predictor.infer`` on the crops of each image and averages the features of each
    image's crops (see :class:`FeaturePredictor`, whose attributes the other arguments are):
    ``(B, ...)`` arrays."""
    crops = [_crops(img, crop_size, scale_size, crop, mean, scale_) for img in imgs]
    if not crops:
        return numpy.empty((0,), numpy.float32)
    n_crop = crops[0].shape[0]
    features = predictor.infer(predictor.xp.asarray(numpy.concatenate(crops)))
    if isinstance(features, tuple):
        return tuple(_average_crops(f, n_crop) for f in features)
    return _average_crops(features, n_crop)


def _average_crops(feature, n_crop: int) -> numpy.ndarray:
    array = backend.CpuDevice().send(getattr(feature, 'array', feature))
    array = array.reshape((-1, n_crop) + array.shape[1:])
    if n_crop > 1:
        if array.ndim == 5:
            warnings.warn('predict: four-dimensional features are averaged over the crops, '
                          'which loses their spatial correspondence', stacklevel=4)
        array = array.mean(axis=1)
    else:
        array = array[:, 0]
    return array

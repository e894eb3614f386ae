"""What a weight expects of its input images (:class:`Preprocessing`)."""

from __future__ import annotations

import dataclasses

import numpy


@dataclasses.dataclass(frozen=True)
class Preprocessing:
    """What a weight expects of its input images.

    Attributes:
        mean (tuple of float): the channel means subtracted, in units of ``value_range``.
        std (tuple of float or None): the channel standard deviations divided by after that,
            in units of ``value_range`` (None: no division).
        value_range (float): the publisher's pixel scale: 255 for 0-255 images, 1 for 0-1.
        channel_order (str): ``'RGB'`` (every weight here is stored for RGB input).
        resize (int or None): the length the shorter side is resized to before cropping
            (None: the model resizes as it needs, as a detector does).
        crop_size (int or None): the side of the square crop given to the network (None: no
            crop).
        crop (str or None): ``'center'`` or ``'10'`` (ten crops, averaged); None: no crop.
        interpolation (str): the resampling of the resize.
    """

    mean: tuple[float, ...]
    std: tuple[float, ...] | None = None
    value_range: float = 255.0
    channel_order: str = 'RGB'
    resize: int | None = 256
    crop_size: int | None = 224
    crop: str | None = 'center'
    interpolation: str = 'bilinear'

    def model_mean(self) -> numpy.ndarray:
        """The mean a model of this project subtracts from 0-255 images: ``(3, 1, 1)``
        float32."""
        mean = numpy.asarray(self.mean, numpy.float64) * (255.0 / self.value_range)
        return mean.astype(numpy.float32)[:, None, None]

    def input_scale(self) -> numpy.ndarray | None:
        """``1 / std`` for 0-255 images, ``(3,)`` float64; the converters fold it into the
        first convolution, so that the model takes ``img - mean`` as every model here does.
        None when there is no division."""
        if self.std is None:
            return None
        return 1.0 / (numpy.asarray(self.std, numpy.float64) * (255.0 / self.value_range))


IMAGENET_TORCHVISION = Preprocessing(mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225),
                                     value_range=1.0)
"""torchvision's ImageNet preprocessing, assumed for checkpoints given by path."""

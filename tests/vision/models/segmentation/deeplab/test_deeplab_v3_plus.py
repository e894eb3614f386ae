"""DeepLabV3plus's predict, with a network whose class scores are the prepared image itself:
the padding of small images, the scales and flips and their average, grayscale images and the
errors."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.functions as F
from framework.links.link import Link
from vision.models.segmentation.deeplab import DeepLabV3plus, Xception65
from vision.transforms import resize


class _Extractor(Link):
    mean = Xception65.mean


class _PixelwiseDeepLab(DeepLabV3plus):
    """Its logits are ten times its input, at the input's resolution: each pixel's label is
    the channel of the image at its highest wherever the runs put the pixel, as long as its
    probabilities come back to where it was. Records the runs it averages."""

    def __init__(self, min_input_size=16, scales=(1.0,), flip=False):
        super().__init__(_Extractor(), Link(), Link(), min_input_size, scales, flip)
        self.runs = []

    def forward(self, x):
        return 10 * framework.as_variable(x)

    def _probabilities(self, img, scale, flip):
        probs = super()._probabilities(img, scale, flip)
        self.runs.append((scale, flip, probs))
        return probs


def _image(shape, seed=0):
    return numpy.random.RandomState(seed).uniform(0, 255, shape).astype(numpy.float32)


def test_prepare_pads_at_the_bottom_right_with_the_mean_and_scales_to_minus_one_one():
    model = _PixelwiseDeepLab(min_input_size=(8, 12))
    img = _image((3, 5, 13))
    x = model.prepare(img)
    assert x.shape == (3, 8, 13) and x.dtype == numpy.float32
    numpy.testing.assert_array_equal(x[:, :5], img / numpy.float32(127.5) - 1)
    assert (x[:, 5:] == 0).all()
    assert model.prepare(numpy.full((3, 1, 1), 255, numpy.float32)).max() == 1


@pytest.mark.parametrize('shape', [(3, 10, 12), (3, 20, 30), (3, 1, 1), (3, 17, 5)])
@pytest.mark.parametrize('flip', [False, True])
def test_every_pixel_is_labelled_from_its_own_place(shape, flip):
    # smaller than min_input_size (16x16): padded; larger; or padded on one side only
    model = _PixelwiseDeepLab(flip=flip)
    img = _image(shape)
    label, = model.predict([img])
    assert label.dtype == numpy.int32 and label.shape == shape[1:]
    numpy.testing.assert_array_equal(label, img.argmax(axis=0))
    assert [(s, f) for s, f, _ in model.runs] == [(1.0, False)] + [(1.0, True)] * flip


def test_the_runs_at_each_scale_and_flip_are_averaged():
    model = _PixelwiseDeepLab(scales=(0.5, 1.0, 1.75), flip=True)
    img = _image((3, 21, 30))
    label, = model.predict([img])
    runs = [(s, f) for s, f, _ in model.runs]
    assert runs == [(s, f) for s in (0.5, 1.0, 1.75) for f in (False, True)]
    probs = [p for _, _, p in model.runs]
    assert all(p.shape == (3, 21, 30) for p in probs)
    numpy.testing.assert_array_equal(label, (sum(probs) / 6).argmax(axis=0))
    # the flipped runs are brought back: at scale 1, each pixel's own probabilities
    numpy.testing.assert_allclose(probs[3], probs[2], rtol=1e-6)


def test_a_scaled_image_is_resized_there_and_its_probabilities_back():
    model = _PixelwiseDeepLab(scales=(0.5,))
    img = _image((3, 21, 30))
    model.predict([img])
    small = resize(img, (10, 15))
    x = numpy.zeros((3, 16, 16), numpy.float32)
    x[:, :10, :15] = small / numpy.float32(127.5) - 1
    expected = resize(F.softmax(10 * x[None]).array[0, :, :10, :15], (21, 30))
    numpy.testing.assert_allclose(model.runs[0][2], expected, rtol=1e-5, atol=1e-7)


def test_grayscale_images_are_given_as_three_equal_channels():
    model = _PixelwiseDeepLab(scales=(0.5, 1.0), flip=True)
    gray = _image((1, 12, 20))
    label, = model.predict([gray])
    numpy.testing.assert_array_equal(label, model.predict([numpy.repeat(gray, 3, axis=0)])[0])


def test_no_images_give_an_empty_list():
    assert _PixelwiseDeepLab().predict([]) == []


@pytest.mark.parametrize('shape, message', [
    ((2, 8, 8), r'_PixelwiseDeepLab.predict: imgs\[0\] must have 3 channels \(RGB\) or 1 '
                r'\(grayscale\)'),
    ((8, 8, 3), r'looks like \(H, W, C\)'),
    ((3, 0, 8), 'at least one pixel'),
])
def test_bad_images_are_refused(shape, message):
    with pytest.raises(ValueError, match=message):
        _PixelwiseDeepLab().predict([numpy.zeros(shape, numpy.float32)])


@pytest.mark.parametrize('kwargs, message', [
    ({'min_input_size': 0}, r'min_input_size must be a positive int or a pair \(H, W\) of '
                            'them, but got 0'),
    ({'min_input_size': (16, 0)}, r'but got \(16, 0\)'),
    ({'min_input_size': (16, 16, 3)}, r'but got \(16, 16, 3\)'),
    ({'min_input_size': 16.0}, 'but got 16.0'),
    ({'scales': ()}, r'scales must be a non-empty sequence of positive numbers, but got \(\)'),
    ({'scales': (1.0, 0)}, r'but got \(1.0, 0\)'),
    ({'scales': 1.0}, 'but got 1.0'),
    ({'scales': (True,)}, r'but got \(True,\)'),
])
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=f'_PixelwiseDeepLab: .*{message}'):
        _PixelwiseDeepLab(**kwargs)


def test_arguments_are_kept_as_given():
    model = _PixelwiseDeepLab(min_input_size=(8, 12), scales=[0.5, 2], flip=1)
    assert model.min_input_size == (8, 12) and model.scales == (0.5, 2.0) and model.flip is True
    assert _PixelwiseDeepLab(min_input_size=numpy.int64(9)).min_input_size == (9, 9)

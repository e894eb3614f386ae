import itertools
import pickle
import tracemalloc

import numpy
import pytest

import framework
import framework.functions as F
from framework.links import Chain
from vision.models import FeaturePredictor, ResNet14


class Extractor(Chain):
    """Records its inputs; returns the mean of each channel of each crop (and, with two
    outputs, the crops' maximum) so that the averaging over crops can be checked."""

    def __init__(self, in_channels=3, two_outputs=False, scale=None):
        super().__init__()
        self.mean = numpy.arange(in_channels, dtype=numpy.float32).reshape((-1, 1, 1))
        if scale is not None:
            self.scale = scale
        self.two_outputs = two_outputs
        self.inputs = []

    def forward(self, x):
        self.inputs.append(x)
        assert not framework.config.train and not framework.config.enable_backprop
        y = F.mean(x, axis=(2, 3))
        return (y, F.max(x, axis=(1, 2, 3))) if self.two_outputs else y


def images(n=2, in_channels=3, size=(40, 30), seed=0):
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(0, 255, (in_channels,) + size).astype(numpy.float32) for _ in range(n)]


@pytest.mark.parametrize('crop, crop_size, scale_size, in_channels', list(itertools.product(
    ['center', '10'], [24, (24, 20), (20, 24)], [None, 32, (36, 28)], [1, 3])))
def test_prepare(crop, crop_size, scale_size, in_channels):
    link = FeaturePredictor(Extractor(in_channels), crop_size, scale_size, crop)
    hw = (crop_size, crop_size) if isinstance(crop_size, int) else crop_size
    img = images(1, in_channels)[0]
    original = img.copy()
    out = link._prepare(img)
    assert out.shape == ((1 if crop == 'center' else 10), in_channels) + hw
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(img, original)


def test_prepare_subtracts_the_mean_and_scales():
    img = images(1)[0]
    link = FeaturePredictor(Extractor(), 10, crop='center', mean=numpy.float32(5), scale=0.5)
    expected = (img[:, 15:25, 10:20] - 5) * 0.5
    numpy.testing.assert_allclose(link._prepare(img)[0], expected, rtol=1e-6)
    default = FeaturePredictor(Extractor(), 10)
    numpy.testing.assert_array_equal(default.mean, default.extractor.mean)
    assert default.scale is None
    assert FeaturePredictor(Extractor(scale=2.), 10).scale == 2.


@pytest.mark.parametrize('crop', ['center', '10'])
def test_predict_averages_the_crops(crop):
    imgs = images(3)
    extractor = Extractor()
    link = FeaturePredictor(extractor, (20, 16), crop=crop)
    out = link.predict(imgs)
    assert isinstance(out, numpy.ndarray) and out.shape == (3, 3)  # ChainerCV's: stacked
    n_crop = 1 if crop == 'center' else 10
    assert extractor.inputs[0].shape == (3 * n_crop, 3, 20, 16)
    for img, feature in zip(imgs, out):
        crops = link._prepare(img)
        assert feature.shape == (3,) and feature.dtype == numpy.float32
        numpy.testing.assert_allclose(feature, crops.mean(axis=(2, 3)).mean(axis=0), rtol=1e-5)


def test_predict_with_several_features():
    imgs = images(2)
    link = FeaturePredictor(Extractor(two_outputs=True), 16, scale_size=24, crop='10')
    means, maxima = link.predict(imgs)
    assert means.shape == (2, 3) and maxima.shape == (2,)
    crops = link._prepare(imgs[1])
    numpy.testing.assert_allclose(maxima[1], crops.max(axis=(1, 2, 3)).mean(), rtol=1e-6)


def test_predict_nothing():
    out = FeaturePredictor(Extractor(), 8).predict([])
    assert isinstance(out, numpy.ndarray) and out.shape == (0,)
    assert ResNet14(n_class=3, base_channels=4).predict([]) == []


def test_bad_arguments():
    with pytest.raises(ValueError, match="FeaturePredictor: crop must be 'center' or '10', but "
                                         "got 'corners'"):
        FeaturePredictor(Extractor(), 8, crop='corners')
    with pytest.raises(ValueError, match=r'predict: img must have shape \(C, H, W\), but got '
                                         r'shape \(8, 8\)'):
        FeaturePredictor(Extractor(), 8).predict([numpy.zeros((8, 8), numpy.float32)])


@pytest.mark.parametrize('model', [FeaturePredictor(Extractor(), 24, 32),
                                   ResNet14(n_class=3, base_channels=4)],
                         ids=['feature_predictor', 'classifier'])
def test_channels_last_image_is_refused_with_the_layout(model):
    img = images(1)[0].transpose(1, 2, 0)
    with pytest.raises(ValueError, match=r'predict: img must have shape \(C, H, W\) \(channels '
                                         r'first\), but got shape \(40, 30, 3\), which looks '
                                         r'like \(H, W, C\): pass img.transpose\(2, 0, 1\)'):
        model.predict([img])


@pytest.mark.parametrize('dtype', [numpy.float64, numpy.uint8])
def test_other_dtypes_are_cast_to_float32_first(dtype):
    link = FeaturePredictor(Extractor(), 24, 32)
    img = numpy.rint(images(1)[0]).astype(dtype)
    crops = link._prepare(img)
    assert crops.dtype == numpy.float32
    numpy.testing.assert_array_equal(crops, link._prepare(img.astype(numpy.float32)))


def test_boolean_image_is_refused():
    with pytest.raises(TypeError, match=r'predict: img must be an integer or floating-point '
                                        r'array \(float32, values 0-255\), but got dtype bool'):
        FeaturePredictor(Extractor(), 8).predict([numpy.zeros((3, 8, 8), bool)])


def test_large_images_are_resized_one_by_one():
    """Eight large images given one at a time never hold more than about one full-size float
    copy: each is resized and cropped before the next is taken."""
    shape = (3, 1000, 1000)
    float_copy = numpy.prod(shape) * 4

    def large_images():
        for i in range(8):
            yield numpy.full(shape, i, numpy.uint8)

    link = FeaturePredictor(Extractor(), 24, 32)
    tracemalloc.start()
    try:
        out = link.predict(large_images())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert out.shape == (8, 3)
    assert peak < 2 * float_copy


@pytest.mark.parametrize('crop', [None, 'center', '10'])
def test_classifier_predict_is_feature_predictor_with_the_weights_preprocessing(crop):
    model = ResNet14(n_class=3, base_channels=4)
    imgs = images(2, size=(260, 300))
    expected = FeaturePredictor(model, 224, 256, crop or 'center').predict(imgs)
    actual = model.predict(imgs, crop=crop)
    assert isinstance(actual, list) and len(actual) == 2 and actual[0].shape == (3,)
    numpy.testing.assert_allclose(numpy.stack(actual), expected, rtol=1e-6)


def test_classifier_predict_takes_the_crop_of_named_weights():
    model = ResNet14(pretrained_model='shapes')
    pre = model.weight_spec.preprocessing
    img = images(1, size=(50, 40))
    expected = FeaturePredictor(model, pre.crop_size, pre.resize, pre.crop).predict(img)
    numpy.testing.assert_array_equal(model.predict(img)[0], expected[0])
    with pytest.raises(ValueError, match="predict: crop must be 'center' or '10', but got 'x'"):
        model.predict(img, crop='x')


def test_classifier_predict_with_several_layers_gives_lists():
    model = ResNet14(n_class=3, base_channels=4)
    model.pick = ('fc6', 'prob')
    logits, probs = model.predict(images(2, size=(260, 300)))
    assert isinstance(logits, list) and isinstance(probs, list) and len(probs) == 2
    assert logits[0].shape == probs[0].shape == (3,)


@pytest.mark.parametrize('crop', ['center', '10'])
def test_hybridized_predict_is_the_eager_predict(crop):
    model = ResNet14(pretrained_model='shapes')
    imgs = images(2, size=(50, 40))
    expected = model.predict(imgs, crop=crop)
    model.hybridize()
    actual = model.predict(imgs, crop=crop)
    numpy.testing.assert_allclose(numpy.stack(actual), numpy.stack(expected), rtol=1e-4,
                                  atol=1e-6)
    assert len(model._static_graph._signatures) == 1


def test_hybridize_again_after_changing_the_parameters():
    model = ResNet14(n_class=3, base_channels=4)
    model.pick = ('fc6', 'prob')
    img = images(1, size=(260, 300))
    model.hybridize()
    before = model.predict(img)[0][0]
    model.conv1.bn.gamma.array *= 2  # folded into conv1's filters when traced
    assert numpy.array_equal(model.predict(img)[0][0], before)
    model.hybridize(False)
    assert model._static_graph is None
    changed = model.predict(img)[0][0]
    assert not numpy.allclose(changed, before)
    model.hybridize()
    numpy.testing.assert_allclose(model.predict(img)[0][0], changed, rtol=1e-4, atol=1e-5)


def test_hybridized_feature_predictor_is_the_eager_one():
    model = ResNet14(n_class=3, base_channels=4)
    model.pick = ('fc6', 'prob')
    predictor = FeaturePredictor(model, 32, 40, '10')
    imgs = images(3, size=(50, 40))
    expected = predictor.predict(imgs)
    predictor.hybridize()
    actual = predictor.predict(imgs)
    for a, e in zip(actual, expected):
        numpy.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-6)
    assert predictor._static_graph.fn is model


def test_a_hybridized_model_copies_and_pickles():
    model = ResNet14(n_class=3, base_channels=4)
    model.hybridize()
    imgs = images(1, size=(260, 300))
    expected = model.predict(imgs)[0]
    for other in (model.copy(mode='copy'), pickle.loads(pickle.dumps(model))):
        assert other._static_graph.fn is other
        numpy.testing.assert_allclose(other.predict(imgs)[0], expected, rtol=1e-5, atol=1e-7)

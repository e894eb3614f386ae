"""PSPNetResNet50 and PSPNetResNet101: ChainerCV's parameters, parity with ChainerCV's
PSPNetResNet50 on weights made by the rule of the fixtures, the sliding-window predict on
images of any size, and the weights they load."""

from __future__ import annotations

import math
import pathlib

import numpy
import pytest

import framework
import framework.functions as F
from framework.serializers import NpzDeserializer, save_npz
from vision.models import PSPNetResNet50, PSPNetResNet101, get_model
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes
from vision.weights import get_weight

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'chainercv_pspnet_resnet50_params.tsv'


def _small(cls=PSPNetResNet50, n_class=3, input_size=48, **kwargs):
    numpy.random.seed(0)
    framework.random.seed(0)
    return cls(n_class=n_class, input_size=input_size, base_channels=2, **kwargs)


def _image(shape, seed=0):
    return numpy.random.RandomState(seed).uniform(0, 255, shape).astype(numpy.float32)


def _chainercv_scores(model, img):
    """ChainerCV's ``_tile_predict`` for an image larger than ``input_size``, written out with
    a zero-padded copy of the image in place of the crops' slices."""
    x = img - model.mean
    (H, W), (h, w) = x.shape[1:], model.input_size
    stride = math.ceil(h * 2 / 3), math.ceil(w * 2 / 3)
    counts = [max(math.ceil((n - k) / s) + 1, 1) for n, k, s in zip((H, W), (h, w), stride)]
    first = [-(k + s * (c - 1) - n) // 2 for n, k, s, c in zip((H, W), (h, w), stride, counts)]
    pad = max(h, w)
    padded = numpy.pad(x, ((0, 0), (pad, pad), (pad, pad)))
    total = numpy.zeros((model.n_class,) + padded.shape[1:], numpy.float32)
    seen = numpy.zeros(padded.shape[1:], numpy.float32)

    def probs(tile):
        with framework.using_config('train', False):
            return F.softmax(model(numpy.ascontiguousarray(tile)[None])).array[0]

    for i in range(counts[0]):
        for j in range(counts[1]):
            top, left = pad + first[0] + i * stride[0], pad + first[1] + j * stride[1]
            tile = padded[:, top:top + h, left:left + w]
            total[:, top:top + h, left:left + w] += (probs(tile)
                                                     + probs(tile[:, :, ::-1])[:, :, ::-1])
            seen[top:top + h, left:left + w] += 2
    return (total / numpy.maximum(seen, 1))[:, pad:pad + H, pad:pad + W]


class _PixelwisePSPNet(PSPNetResNet50):
    """A PSPNet whose logits are ten times its input: its label map is the argmax over the
    channels of the image less the mean, wherever the tiles put each pixel."""

    def forward(self, x):
        return 10 * framework.as_variable(x)


def test_parameters_are_chainercvs():
    model = PSPNetResNet50(n_class=21, input_size=473, initialW=framework.initializers.Zero())
    assert model_shapes(model) == tsv_shapes(TSV)


def test_resnet101_has_23_blocks_in_res4():
    model = _small(PSPNetResNet101)
    assert hasattr(model.extractor.res4, 'b22') and not hasattr(model.extractor.res4, 'b23')


def test_registered_as_semantic_segmentation_models():
    assert get_model('pspnet_resnet50') is PSPNetResNet50
    assert get_model('pspnet_resnet101') is PSPNetResNet101
    assert PSPNetResNet50.task == PSPNetResNet101.task == 'semantic_segmentation'


@pytest.mark.slow
def test_label_map_is_chainercvs():
    with numpy.load(DATA / 'chainercv_pspnet_resnet50.npz') as f:
        img, expected = f['input'], f['predict/label']
    model = PSPNetResNet50(n_class=21, input_size=(473, 473))
    NpzDeserializer(rule_npz_state(TSV), ignore_names=lambda key: key.endswith('/N')).load(model)
    label, = model.predict([img])
    assert label.dtype == numpy.int32 and label.shape == expected.shape
    assert (label == expected).mean() > 0.999


@pytest.mark.slow
@pytest.mark.parametrize('key', ['tiled', 'padded'])
def test_probabilities_of_tiles_and_padding_are_chainercvs(key):
    # tests/data/make_chainercv_segmentation_fixtures.py: input_size 64, a (3, 100, 150) image
    # cut into six tiles and a (3, 40, 56) one padded; ChainerCV's _tile_predict, every
    # third row and column
    with numpy.load(DATA / 'chainercv_segmentation_sizes.npz') as f:
        img, expected, label = (f[f'pspnet_{key}/{k}'] for k in ('input', 'probs', 'label'))
        step = int(f['step'])
    model = PSPNetResNet50(n_class=21, input_size=64)
    NpzDeserializer(rule_npz_state(TSV), ignore_names=lambda key: key.endswith('/N')).load(model)
    probs = model._scores(img - model.mean)  # what predict takes the argmax of
    numpy.testing.assert_allclose(probs[:, ::step, ::step], expected, rtol=1e-3, atol=1e-5)
    numpy.testing.assert_array_equal(probs.argmax(axis=0), label)


@pytest.mark.parametrize('shape', [(3, 60, 75), (3, 100, 30), (3, 20, 49)])
def test_tiles_are_averaged_as_chainercv_averages_them(shape):
    model = _small()
    img = _image(shape)
    label, = model.predict([img])
    numpy.testing.assert_array_equal(label, _chainercv_scores(model, img).argmax(axis=0))


@pytest.mark.parametrize('shape', [(3, 60, 75), (3, 48, 48), (3, 30, 20), (3, 1, 1)])
def test_every_pixel_is_labelled_from_its_own_place(shape):
    # Tiles (60x75), one tile (48x48) or padding (30x20, 1x1): the pixel-wise network gives
    # each pixel its own label only where its scores come back to where it was.
    model = _PixelwisePSPNet(n_class=3, input_size=48, base_channels=2)
    img = _image(shape)
    label, = model.predict([img])
    assert label.dtype == numpy.int32 and label.shape == shape[1:]
    numpy.testing.assert_array_equal(label, (img - model.mean).argmax(axis=0))


def test_an_image_smaller_than_input_size_is_padded_with_the_mean():
    # ChainerCV pads the image, less the mean, with zeros at the centre of input_size.
    model = _small()
    img = _image((3, 30, 20))
    x = numpy.zeros((3, 48, 48), numpy.float32)
    x[:, 9:39, 14:34] = img - model.mean
    with framework.using_config('train', False):
        probs = (F.softmax(model(x[None])).array[0]
                 + F.softmax(model(numpy.ascontiguousarray(x[:, :, ::-1])[None])).array[0][
                     :, :, ::-1]) / 2
    label, = model.predict([img])
    numpy.testing.assert_array_equal(label, probs[:, 9:39, 14:34].argmax(axis=0))


def test_grayscale_images_are_given_as_three_equal_channels():
    model = _small()
    gray = _image((1, 40, 60))
    label, = model.predict([gray])
    numpy.testing.assert_array_equal(label, model.predict([numpy.repeat(gray, 3, axis=0)])[0])


@pytest.mark.parametrize('shape, message', [
    ((2, 8, 8), r'imgs\[0\] must have 3 channels \(RGB\) or 1 \(grayscale\)'),
    ((8, 8, 3), r'looks like \(H, W, C\)'),
])
def test_bad_images_are_refused(shape, message):
    with pytest.raises(ValueError, match=message):
        _small().predict([numpy.zeros(shape, numpy.float32)])


def test_hybridized_predict_is_the_eager_one():
    model = _small()
    img = _image((3, 60, 75))
    eager, = model.predict([img])
    model.hybridize()
    hybrid, = model.predict([img])
    numpy.testing.assert_array_equal(hybrid, eager)


@pytest.mark.parametrize('kwargs, message', [
    ({}, 'pspnet_resnet50: n_class must be given'),
    ({'n_class': 3, 'input_size': 0}, r'input_size must be an int or a pair \(H, W\) of ints '
                                      r'of at least 48 \(8 times the finest pyramid, 6\), but '
                                      'got 0'),
    ({'n_class': 3, 'input_size': (48, 47)}, r'at least 48 .* but got \(48, 47\)'),
    ({'n_class': 3, 'input_size': (48, 48, 3)}, 'input_size must be an int or a pair'),
])
def test_bad_arguments_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        PSPNetResNet50(**kwargs)


def test_arguments_contradicting_chainercvs_weights_are_refused():
    ade20k = get_weight('pspnet_resnet101', 'ade20k')
    assert ade20k.n_class == 150 and ade20k.label_names[0] == 'wall'
    with pytest.raises(ValueError, match=r"input_size=\(713, 713\) contradicts the weights "
                                         r"'ade20k', made for input_size=\(473, 473\)"):
        PSPNetResNet101(pretrained_model='ade20k', input_size=713)
    with pytest.raises(ValueError, match=r"n_class=21 contradicts the weights 'cityscapes', "
                                         r'made for n_class=19'):
        PSPNetResNet50(n_class=21, pretrained_model='cityscapes')
    with pytest.raises(ValueError, match=r'input_size=\(473, 473\) contradicts the weights '
                                         r"'cityscapes', made for input_size=\(713, 713\)"):
        PSPNetResNet101(pretrained_model='cityscapes', input_size=473)


def test_weights_of_a_file_fix_n_class_and_width(tmp_path):
    model = _small(n_class=4)
    path = tmp_path / 'pspnet.npz'
    save_npz(path, model)
    loaded = PSPNetResNet50(pretrained_model=path, input_size=48)
    assert loaded.n_class == 4 and loaded.extractor.channels == 64
    numpy.testing.assert_array_equal(loaded.ppm[2].conv.W.array, model.ppm[2].conv.W.array)
    img = _image((3, 50, 70))
    numpy.testing.assert_array_equal(loaded.predict([img])[0], model.predict([img])[0])
    with pytest.raises(ValueError, match=rf'base_channels=64 contradicts the file {path}, '
                                         'made for base_channels=2'):
        PSPNetResNet50(pretrained_model=path, base_channels=64)
    with pytest.raises(ValueError, match=rf'n_class=5 contradicts the file {path}'):
        PSPNetResNet50(n_class=5, pretrained_model=path)

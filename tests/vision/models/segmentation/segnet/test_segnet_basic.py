"""SegNetBasic: ChainerCV's parameters, parity with ChainerCV's SegNetBasic on weights made by
the rule of the fixtures, images of any size, and the weights it loads."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework import optimizers
from framework.serializers import NpzDeserializer, save_npz
from vision.models import PixelwiseSoftmaxClassifier, SegNetBasic, get_model
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes
from vision.weights import get_weight

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'chainercv_segnet_basic_params.tsv'


class _RecordingSegNetBasic(SegNetBasic):
    """Keeps the scores of its last call, so that one forward pass checks both the raw scores
    and the label map of ``predict``."""

    def forward(self, x):
        y = super().forward(x)
        self.scores = y.array
        return y


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'chainercv_segnet_basic.npz') as f:
        return dict(f)


@pytest.fixture(scope='module')
def rule_prediction(fixture):
    """The label map and the raw scores of SegNetBasic(n_class=11) filled by the rule."""
    model = _RecordingSegNetBasic(n_class=11)
    NpzDeserializer(rule_npz_state(TSV), ignore_names=lambda key: key.endswith('/N')).load(model)
    label, = model.predict([fixture['input']])
    return label, model.scores


def _small(n_class=3, **kwargs):
    numpy.random.seed(0)
    framework.random.seed(0)
    return SegNetBasic(n_class=n_class, base_channels=2, **kwargs)


def test_parameters_are_chainercvs():
    assert model_shapes(SegNetBasic(n_class=11)) == tsv_shapes(TSV)


def test_registered_as_a_semantic_segmentation_model_hybridized_by_default():
    assert get_model('segnet_basic') is SegNetBasic
    assert SegNetBasic.task == 'semantic_segmentation'
    # what the vision command reads before it calls hybridize()
    assert SegNetBasic.hybridize_by_default


@pytest.mark.parametrize('size', [(64, 48), (45, 61)], ids=['multiples-of-16', 'odd'])
def test_hybridized_poolings_and_unpoolings_run_channels_last_on_each_image(size):
    model = _small()
    rng = numpy.random.RandomState(0)
    imgs = [rng.uniform(0, 255, (3,) + size).astype(numpy.float32) for _ in range(3)]
    eager = model.predict(imgs)
    model.hybridize()
    for label, expected in zip(model.predict(imgs), eager):
        numpy.testing.assert_array_equal(label, expected)
    graph = model._static_graph.graph(numpy.asarray(imgs[0])[None])
    kinds = [type(op).__name__ for op in graph.ops]
    assert kinds.count('Pool2D') == kinds.count('Unpool2D') == 4
    # channels-first only for the local response normalization, the score map and, on odd
    # sizes, the cut of an unpooling larger than the pooling it undoes
    assert kinds.count('Transpose') == (2 if size == (64, 48) else 4)


@pytest.mark.slow
def test_raw_scores_are_chainercvs(rule_prediction, fixture):
    _, scores = rule_prediction
    expected = fixture['out/score_center']
    size = numpy.array(expected.shape[2:])
    top, left = (numpy.array(fixture['input'].shape[1:]) - size) // 2
    actual = scores[:, :, top:top + size[0], left:left + size[1]]
    numpy.testing.assert_allclose(actual, expected, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected).max())


@pytest.mark.slow
def test_label_map_is_chainercvs(rule_prediction, fixture):
    label, scores = rule_prediction
    expected = fixture['predict/label']
    assert label.dtype == numpy.int32 and label.shape == expected.shape == scores.shape[2:]
    # A pixel may differ where a pooling window holds two maxima equal within float32 noise:
    # the unpooling then puts the value one pixel away (7 of 172,800 pixels here).
    assert (label == expected).mean() > 0.999
    numpy.testing.assert_array_equal(label, scores[0].argmax(axis=0))


def test_an_image_of_odd_sides_is_scored_and_labelled_as_chainercv_does():
    # tests/data/make_chainercv_segmentation_fixtures.py: a (3, 37, 51) image
    with numpy.load(DATA / 'chainercv_segmentation_sizes.npz') as f:
        img, expected_score, expected_label = (f[k] for k in ('segnet/input', 'segnet/score',
                                                              'segnet/label'))
    model = SegNetBasic(n_class=11)
    NpzDeserializer(rule_npz_state(TSV), ignore_names=lambda key: key.endswith('/N')).load(model)
    with framework.using_config('train', False):
        score = model(img[None]).array
    assert score.shape == expected_score.shape == (1, 11, 38, 52)
    numpy.testing.assert_allclose(score, expected_score, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected_score).max())
    label, = model.predict([img])
    assert len(numpy.unique(expected_label)) == 11
    numpy.testing.assert_array_equal(label, expected_label)


@pytest.mark.parametrize('size, scores_size', [((37, 51), (38, 52)), ((32, 48), (32, 48)),
                                               ((1, 1), (2, 2))])
def test_images_of_any_size_give_label_maps_of_their_size(size, scores_size):
    model = _small()
    img = numpy.random.RandomState(0).uniform(0, 255, (3,) + size).astype(numpy.float32)
    with framework.using_config('train', False):
        assert model(img[None]).shape == (1, 3) + scores_size
    label, = model.predict([img])
    assert label.shape == size and label.dtype == numpy.int32
    assert label.min() >= 0 and label.max() < 3


def test_the_decoder_unpools_where_the_encoder_found_the_maxima():
    # With every 7x7 convolution reduced to its centre (conv1: the mean of the channels, the
    # others: the identity) and batch normalizations that only divide by sqrt(1 + eps), the
    # scores are the maximum of each 16x16 block of the normalized image's channel mean, put
    # back where it was, and zero elsewhere.
    model = _small(n_class=1)
    convs = [model.conv1] + [model[f'conv{i}'] for i in range(2, 5)] \
        + [model[f'conv_decode{i}'] for i in range(1, 5)]
    for conv in convs:
        conv.W.array[...] = 0
    model.conv1.W.array[:, :, 3, 3] = 1 / 3
    for conv in convs[1:]:
        conv.W.array[:, :, 3, 3] = numpy.eye(2)
    for name, bn in model.namedlinks():
        if name.endswith('_bn'):
            bn.gamma.array[...], bn.beta.array[...] = 1, 0
    model.conv_classifier.W.array[...] = [[[[1]], [[0]]]]
    model.conv_classifier.b.array[...] = 0
    img = numpy.random.RandomState(1).uniform(1, 255, (1, 3, 32, 32)).astype(numpy.float32)
    with framework.using_config('train', False):
        scores = model(img).array[0, 0]
    lrn = framework.functions.local_response_normalization(img, 5, 1, 1e-4 / 5, 0.75)
    blocks = lrn.array[0].mean(axis=0).reshape(2, 16, 2, 16).transpose(0, 2, 1, 3)
    expected = numpy.zeros((2, 2, 16, 16), numpy.float32)
    for by in range(2):
        for bx in range(2):
            y, x = numpy.unravel_index(blocks[by, bx].argmax(), (16, 16))
            expected[by, bx, y, x] = blocks[by, bx, y, x] / (1 + 2e-5) ** 4
    expected = expected.transpose(0, 2, 1, 3).reshape(32, 32)
    numpy.testing.assert_allclose(scores, expected, rtol=1e-5, atol=0)


def test_a_few_steps_of_training_lower_the_loss():
    model = PixelwiseSoftmaxClassifier(_small(n_class=2))
    optimizer = optimizers.MomentumSGD(lr=0.05)
    optimizer.setup(model)
    rng = numpy.random.RandomState(0)
    x = rng.uniform(0, 255, (2, 3, 32, 32)).astype(numpy.float32)
    t = (x[:, 0] > 127).astype(numpy.int32)  # red or not
    losses = []
    for _ in range(5):
        model.cleargrads()
        loss = model(x, t)
        loss.backward()
        assert all(numpy.abs(p.grad).sum() > 0 for _, p in model.namedparams())
        optimizer.update()
        losses.append(float(loss.array))
    assert losses[-1] < losses[0]


def test_grayscale_images_are_given_as_three_equal_channels():
    model = _small()
    gray = numpy.random.RandomState(0).uniform(0, 255, (1, 24, 40)).astype(numpy.float32)
    label, = model.predict([gray])
    numpy.testing.assert_array_equal(label, model.predict([numpy.repeat(gray, 3, axis=0)])[0])


@pytest.mark.parametrize('shape, message', [
    ((2, 8, 8), r'imgs\[0\] must have 3 channels \(RGB\) or 1 \(grayscale\)'),
    ((8, 8, 3), r'looks like \(H, W, C\)'),
    ((3, 0, 8), 'at least one pixel'),
])
def test_bad_images_are_refused(shape, message):
    with pytest.raises(ValueError, match=message):
        _small().predict([numpy.zeros(shape, numpy.float32)])


def test_n_class_must_be_given_without_weights():
    with pytest.raises(ValueError, match='segnet_basic: n_class must be given'):
        SegNetBasic()
    with pytest.raises(ValueError, match='n_class must be a positive int, but got 0'):
        SegNetBasic(n_class=0)


def test_n_class_contradicting_the_camvid_weights_is_refused():
    spec = get_weight('segnet_basic', 'camvid')
    assert spec.n_class == 11 and spec.label_names[0] == 'Sky'
    with pytest.raises(ValueError, match=r"n_class=5 contradicts the weights 'camvid', made for "
                                         r'n_class=11: leave n_class out or pass n_class=11'):
        SegNetBasic(n_class=5, pretrained_model='camvid')


def test_weights_of_a_file_fix_n_class_and_width(tmp_path):
    model = _small(n_class=4)
    path = tmp_path / 'segnet.npz'
    save_npz(path, model)
    loaded = SegNetBasic(pretrained_model=path)
    assert loaded.n_class == 4 and loaded.conv1.W.shape == (2, 3, 7, 7)
    numpy.testing.assert_array_equal(loaded.conv_decode2.W.array, model.conv_decode2.W.array)
    assert loaded.weight_spec is None
    with pytest.raises(ValueError, match=rf'n_class=5 contradicts the file {path}, made for '
                                         'n_class=4'):
        SegNetBasic(n_class=5, pretrained_model=path)
    with pytest.raises(ValueError, match=rf'base_channels=8 contradicts the file {path}, made '
                                         'for base_channels=2'):
        SegNetBasic(pretrained_model=path, base_channels=8)


def test_weights_of_a_train_chain_are_found_under_its_predictor(tmp_path):
    model = _small(n_class=4)
    path = tmp_path / 'chain.npz'
    save_npz(path, PixelwiseSoftmaxClassifier(model))
    loaded = SegNetBasic(pretrained_model=path)
    numpy.testing.assert_array_equal(loaded.conv_classifier.b.array,
                                     model.conv_classifier.b.array)


def test_a_file_of_another_model_is_refused(tmp_path):
    path = tmp_path / 'other.npz'
    numpy.savez(path, **{'conv1/W': numpy.zeros((2, 3, 7, 7), numpy.float32)})
    with pytest.raises(ValueError, match="holds no 'conv_classifier/W'"):
        SegNetBasic(pretrained_model=path)
    with pytest.raises(ValueError, match="segnet_basic: pretrained_model .* must be an NPZ file "
                                         "in Chainer's layout, but it is a PyTorch checkpoint"):
        SegNetBasic(pretrained_model=DATA / 'tiny_classifier.pth')

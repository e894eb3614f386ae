"""FasterRCNNFPNResNet50 and 101 built small (``base_channels=8``, images scaled to 64-96
pixels): the detection contract and presets, ChainerCV's preparation (scale, max_size rule,
padding to the coarsest stride), bad input (images smaller than the stride, strips one pixel
wide, grayscale, other channel counts, no pixels), hybridize(), forward, and weights by path
and ResNet's ImageNet weights copied as ChainerCV copies them; predict on the emulated
device."""

from __future__ import annotations

import hashlib
import io

import numpy
import pytest

import framework
import framework.random
from framework.serializers import save_npz
from framework.testing.emulated_device import EmulatedDevice
from vision.models import (
    FasterRCNNFPNResNet50,
    FasterRCNNFPNResNet101,
    MaskRCNNFPNResNet50,
    ResNet50,
)
from vision.utils.testing import assert_is_detection_link
from vision.weights import get_weight


def _model(cls=FasterRCNNFPNResNet50, n_fg_class=3, base_channels=8, **kwargs):
    numpy.random.seed(0)
    framework.random.seed(0)  # the initializers' generator
    return cls(n_fg_class=n_fg_class, min_size=64, max_size=96, base_channels=base_channels,
               **kwargs)


@pytest.fixture(scope='module')
def model():
    return _model()


def _images(seed=0):
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(0, 255, (3, 96, 128)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 150, 70)).astype(numpy.float32)]


def test_predict_keeps_the_detection_contract(model):
    for preset in ('visualize', 'evaluate'):
        model.use_preset(preset)
        assert_is_detection_link(model, 3)


def test_presets_are_chainercvs():
    model = _model()
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.7)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.05)
    assert (model.min_size, model.max_size, model.stride) == (64, 96, 32)
    assert FasterRCNNFPNResNet50.__init__.__defaults__[2:4] == (800, 1333)


@pytest.mark.parametrize('shape, scale, size', [
    ((3, 96, 128), 64 / 96, (64, 85)),
    ((3, 50, 400), 96 / 400, (12, 96)),   # the longer side would exceed max_size
    ((1, 64, 64), 1., (64, 64)),
    ((3, 1, 1), 64., (64, 64)),
    ((3, 1, 300), 96 / 300, (1, 96)),     # a side that scales below one pixel keeps one
    ((1, 2000, 3), 96 / 2000, (96, 1))])
def test_prepare_scales_and_pads_as_chainercv(model, shape, scale, size):
    x, scales = model.prepare([numpy.full(shape, 100, numpy.float32)])
    assert x.dtype == numpy.float32 and x.shape == (1, 3, -(-size[0] // 32) * 32,
                                                     -(-size[1] // 32) * 32)
    assert scales == [pytest.approx(scale)]
    numpy.testing.assert_allclose(x[0, :, size[0] - 1, size[1] - 1],
                                  100 - model.extractor.mean.ravel(), rtol=1e-5)
    assert (x[0, :, size[0]:] == 0).all() and (x[0, :, :, size[1]:] == 0).all()


def test_prepare_pads_a_batch_to_its_largest_image(model):
    x, scales = model.prepare(_images())
    assert x.shape == (2, 3, 96, 96)  # (64, 85) and (96, 44) rounded up to 32
    assert scales == [pytest.approx(64 / 96), pytest.approx(96 / 150)]


def test_images_of_any_size_and_grayscale(model):
    model.score_thresh = 0.
    rng = numpy.random.RandomState(0)
    gray = rng.uniform(0, 255, (1, 40, 30)).astype(numpy.float32)
    imgs = [rng.uniform(0, 255, shape).astype(numpy.float32)
            for shape in ((3, 1, 1), (3, 20, 31), (3, 1, 300), (3, 2000, 1), (3, 50, 70))]
    imgs += [gray, numpy.repeat(gray, 3, axis=0)]
    bboxes, labels, scores = model.predict(imgs)
    for img, bbox, label, score in zip(imgs, bboxes, labels, scores):
        H, W = img.shape[1:]
        assert bbox.dtype == numpy.float32 and bbox.shape == (len(label), 4)
        assert label.dtype == numpy.int32 and score.dtype == numpy.float32
        assert score.shape == label.shape and ((0 <= label) & (label < 3)).all()
        assert (bbox >= 0).all() and (bbox[:, 0::2] <= H).all() and (bbox[:, 1::2] <= W).all()
        assert (numpy.diff(label) >= 0).all()
    assert len(bboxes[4]) > 0
    for output in (bboxes, labels, scores):
        numpy.testing.assert_array_equal(output[5], output[6])
    model.use_preset('visualize')


def test_images_smaller_than_the_coarsest_stride_are_padded_to_it():
    numpy.random.seed(0)
    framework.random.seed(0)
    model = FasterRCNNFPNResNet50(n_fg_class=3, min_size=8, max_size=12, base_channels=4)
    model.use_preset('evaluate')
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 5, 7)).astype(numpy.float32)
    x, scales = model.prepare([img])
    assert x.shape == (1, 3, 32, 32) and scales == [pytest.approx(8 / 5)]
    with framework.using_config('train', False), framework.no_backprop_mode():
        hs, rois, _ = model(x)
    assert [h.shape[2:] for h in hs] == [(8, 8), (4, 4), (2, 2), (1, 1), (1, 1)]
    (bbox,), (label,), _ = model.predict([img])
    assert len(rois) > 0 and len(bbox) == len(label)
    assert (bbox >= 0).all() and (bbox[:, 0::2] <= 5).all() and (bbox[:, 1::2] <= 7).all()


@pytest.mark.parametrize('shape', [(4, 32, 32), (2, 32, 32)])
def test_other_channel_counts_are_refused(model, shape):
    with pytest.raises(ValueError,
                       match=r'imgs\[0\] must have 3 channels \(RGB\) or 1 \(grayscale\)'):
        model.predict([numpy.zeros(shape, numpy.float32)])


def test_images_without_pixels_are_refused(model):
    with pytest.raises(ValueError, match=r'imgs\[1\] must have at least one pixel'):
        model.predict([_images()[0], numpy.zeros((3, 0, 32), numpy.float32)])


def test_no_images_give_empty_lists(model):
    assert model.predict([]) == ([], [], [])


def test_hybridized_predict_equals_eager():
    model = _model()
    model.use_preset('evaluate')
    imgs = _images(1)
    eager = model.predict(imgs)
    model.hybridize()
    assert model._static_graph is not None and model.bbox_head._static_graph is not None
    for outputs, references in zip(model.predict(imgs), eager):
        for a, e in zip(outputs, references):
            assert a.dtype == e.dtype and a.shape == e.shape
            numpy.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-2)  # see test_models
    model.hybridize(False)
    for outputs, references in zip(model.predict(imgs), eager):
        for a, e in zip(outputs, references):
            numpy.testing.assert_array_equal(a, e)


def test_forward_gives_the_levels_and_the_proposals(model):
    x, _ = model.prepare(_images())
    with framework.using_config('train', False), framework.no_backprop_mode():
        hs, rois, roi_indices = model(x)
    assert [h.shape for h in hs] == [(2, 32, 96 // s, 96 // s) for s in (4, 8, 16, 32)] + \
        [(2, 32, 2, 2)]
    assert rois.dtype == numpy.float32 and roi_indices.dtype == numpy.int32
    assert set(roi_indices.tolist()) == {0, 1}
    assert (rois >= 0).all() and (rois[:, 2:] <= 96).all()


def test_resnet101_has_its_23_blocks_in_res4():
    model = _model(FasterRCNNFPNResNet101)
    assert hasattr(model.extractor.base.res4, 'b22') and not hasattr(model.extractor.base, 'fc6')
    assert_is_detection_link(model, 3)


def test_an_npz_file_fixes_n_fg_class(model, tmp_path):
    save_npz(tmp_path / 'model.npz', model)
    loaded = FasterRCNNFPNResNet50(pretrained_model=tmp_path / 'model.npz', min_size=64,
                                   max_size=96, base_channels=8)
    assert loaded.n_class == 4
    params = dict(loaded.namedparams())
    for name, param in model.namedparams():
        numpy.testing.assert_array_equal(param.array, params[name].array)
    with pytest.raises(ValueError, match=r'faster_rcnn_fpn_resnet50: n_fg_class=5 contradicts '
                                         r'the file .*model\.npz, made for 3 foreground'):
        FasterRCNNFPNResNet50(n_fg_class=5, pretrained_model=tmp_path / 'model.npz',
                              base_channels=8)
    with pytest.raises(ValueError, match='n_fg_class must be given when pretrained_model'):
        FasterRCNNFPNResNet50()


@pytest.mark.parametrize('cls', [FasterRCNNFPNResNet50, MaskRCNNFPNResNet50])
def test_a_resnet_classifiers_file_starts_the_extractor(tmp_path, cls):
    # A classifier trained on shapes by scripts/train_imagenet.py starts the FPN detectors as
    # ImageNet's ResNet does: its layers and statistics in the base, the rest initialised.
    classifier = ResNet50(n_class=4, base_channels=8, arch='he')
    rng = numpy.random.RandomState(0)
    for _, param in classifier.namedparams():
        param.array[...] = rng.uniform(-1, 1, param.shape)
    classifier.res4.b1.conv2.bn.avg_var[...] = rng.uniform(0.5, 2, 32)
    save_npz(tmp_path / 'classifier.npz', classifier)
    model = cls(n_fg_class=3, pretrained_model=tmp_path / 'classifier.npz', min_size=64,
                max_size=96, base_channels=8)
    assert model.n_class == 4
    base = dict(model.extractor.base.namedparams())
    for name, param in classifier.namedparams():
        if not name.startswith('/fc6'):
            numpy.testing.assert_array_equal(base[name].array, param.array, err_msg=name)
    numpy.testing.assert_array_equal(model.extractor.base.res4.b1.conv2.bn.avg_var,
                                     classifier.res4.b1.conv2.bn.avg_var)
    assert numpy.abs(model.bbox_head.conf.W.array).max() > 0  # initialised, not loaded
    with pytest.raises(ValueError, match=r'pretrained_model=.*classifier\.npz.* is a ResNet of '
                                         r'base_channels 8, but got base_channels=16'):
        cls(n_fg_class=3, pretrained_model=tmp_path / 'classifier.npz', base_channels=16)
    with pytest.raises(ValueError, match=r'n_fg_class must be given with pretrained_model='
                                         r'.*classifier\.npz.* \(a ResNet classifier'):
        cls(pretrained_model=tmp_path / 'classifier.npz', base_channels=8)


def test_imagenet_weights_are_copied_into_the_base_as_chainercv(file_server, vision_home,
                                                                 weights_manifest, weight_row):
    # ResNet-50 of an eighth the width stands for the real one (the copy is the same at any
    # width), which the constructor refuses before fetching anything.
    model = _model()
    base = model.extractor.base
    rng = numpy.random.RandomState(0)
    # a file saved from a ResNet: its parameters and persistents (the statistics, and the
    # batch normalizations' counters N)
    arrays = {}
    for name, value in list(base.namedpersistents()) + [
            (name, param.array) for name, param in base.namedparams()]:
        value = numpy.asarray(value)
        arrays[name.lstrip('/')] = value if value.dtype.kind != 'f' else \
            rng.uniform(-1, 1, value.shape).astype(numpy.float32)
    arrays['fc6/W'] = numpy.zeros((1000, 2048), numpy.float32)  # ResNet's classifier: unread
    buffer = io.BytesIO()
    numpy.savez(buffer, **arrays)
    data = buffer.getvalue()
    url = file_server.serve('/resnet50_imagenet.npz', data)
    weights_manifest([weight_row(
        model='faster_rcnn_fpn_resnet50', name='imagenet', source={'url': url},
        sha256=hashlib.sha256(data).hexdigest(), converter='chainercv_npz', n_class=None,
        categories=None)])
    with pytest.raises(ValueError, match=r"pretrained_model='imagenet' is ResNet of "
                                         r'base_channels 64, but got base_channels=8'):
        _model(pretrained_model='imagenet')
    with pytest.raises(ValueError, match="n_fg_class must be given with pretrained_model="
                                         "'imagenet'"):
        FasterRCNNFPNResNet50(pretrained_model='imagenet')
    assert file_server.count('/resnet50_imagenet.npz') == 0
    before = {name: param.array.copy() for name, param in model.namedparams()}
    model._load_imagenet_resnet(get_weight('faster_rcnn_fpn_resnet50', 'imagenet'))
    assert model.weight_spec.name == 'imagenet'
    for name, param in model.namedparams():
        key = name[len('/extractor/base/'):]
        expected = arrays[key] if name.startswith('/extractor/base/') else before[name]
        numpy.testing.assert_array_equal(param.array, expected, err_msg=name)
    numpy.testing.assert_array_equal(base.res5.b2.conv3.bn.avg_var,
                                     arrays['res5/b2/conv3/bn/avg_var'])


def test_predict_on_the_emulated_device_is_predict_on_the_cpu():
    # no implicit transfer (the emulated device refuses those as CuPy does), host arrays out
    imgs = _images()
    expected = _model(base_channels=4).predict(imgs)
    model = _model(base_channels=4)
    model.to_device(EmulatedDevice())
    for got, want in zip(model.predict(imgs), expected):
        for a, e in zip(got, want):
            assert type(a) is numpy.ndarray and a.dtype == e.dtype and a.shape == e.shape
            numpy.testing.assert_allclose(a, e, rtol=1e-4, atol=1e-4)

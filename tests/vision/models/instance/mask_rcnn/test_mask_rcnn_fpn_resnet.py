"""MaskRCNNFPNResNet50 and 101 built small (``base_channels=4``, images scaled to 64-96
pixels): the instance segmentation contract and presets, the detections of the FPN detector
with the same weights, masks inside their boxes, hybridize(), weights by path and by name
(ChainerCV's coco rows of the manifest, and ResNet's ImageNet weights for training)."""

from __future__ import annotations

import numpy
import pytest

import framework
import framework.random
from framework.serializers import load_npz, save_npz
from vision.models import (
    FasterRCNNFPNResNet50,
    MaskRCNNFPNResNet50,
    MaskRCNNFPNResNet101,
    get_model,
)
from vision.utils.testing import assert_is_instance_segmentation_link
from vision.weights import get_weight


def _model(cls=MaskRCNNFPNResNet50, n_fg_class=3, **kwargs):
    numpy.random.seed(0)
    framework.random.seed(0)  # the initializers' generator
    return cls(n_fg_class=n_fg_class, min_size=64, max_size=96, base_channels=4, **kwargs)


@pytest.fixture(scope='module')
def model():
    model = _model()
    model.use_preset('evaluate')
    return model


def _images(seed=0):
    rng = numpy.random.RandomState(seed)
    return [rng.uniform(0, 255, (3, 96, 128)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 150, 70)).astype(numpy.float32)]


def test_registered_for_instance_segmentation():
    assert get_model('mask_rcnn_fpn_resnet50') is MaskRCNNFPNResNet50
    assert get_model('mask_rcnn_fpn_resnet101') is MaskRCNNFPNResNet101
    assert MaskRCNNFPNResNet50.task == 'instance_segmentation'


@pytest.mark.parametrize('cls', [MaskRCNNFPNResNet50, MaskRCNNFPNResNet101])
def test_predict_keeps_the_instance_segmentation_contract(cls):
    model = _model(cls)
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.7)
    assert_is_instance_segmentation_link(model, 3)
    model.use_preset('evaluate')
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.05)
    assert_is_instance_segmentation_link(model, 3)


def test_the_objects_are_the_fpn_detectors_and_their_masks_lie_in_their_boxes(model, tmp_path):
    save_npz(tmp_path / 'model.npz', model)
    detector = _model(FasterRCNNFPNResNet50)
    load_npz(tmp_path / 'model.npz', detector, ignore_names=lambda key: 'mask_head/' in key)
    detector.use_preset('evaluate')
    imgs = _images()
    masks, labels, scores = model.predict(imgs)
    bboxes, det_labels, det_scores = detector.predict(imgs)
    for img, mask, label, score, bbox, det_label, det_score in zip(
            imgs, masks, labels, scores, bboxes, det_labels, det_scores):
        numpy.testing.assert_array_equal(label, det_label)
        numpy.testing.assert_array_equal(score, det_score)
        assert mask.shape == (len(bbox), *img.shape[1:]) and len(bbox) > 0
        assert mask.any()
        for m, (y_min, x_min, y_max, x_max) in zip(mask, bbox):
            # the grid covers the box widened by (28 + 2) / 28 about its centre
            dy, dx = (y_max - y_min) / 28 + 0.5, (x_max - x_min) / 28 + 0.5
            ys, xs = numpy.nonzero(m)
            assert (ys >= y_min - dy).all() and (ys < y_max + dy).all()
            assert (xs >= x_min - dx).all() and (xs < x_max + dx).all()


def test_an_image_without_objects_gives_empty_masks(model):
    model.score_thresh = 1.1
    masks, labels, scores = model.predict(_images())
    model.use_preset('evaluate')
    assert [m.shape for m in masks] == [(0, 96, 128), (0, 150, 70)]
    assert all(m.dtype == bool for m in masks)
    assert [len(label) for label in labels] == [len(score) for score in scores] == [0, 0]


def test_images_are_checked_and_none_give_empty_lists(model):
    assert model.predict([]) == ([], [], [])
    with pytest.raises(ValueError,
                       match=r'imgs\[0\] must have 3 channels \(RGB\) or 1 \(grayscale\)'):
        model.predict([numpy.zeros((2, 32, 32), numpy.float32)])


def test_hybridized_predict_equals_eager(monkeypatch):
    # The mask head's static graph against its eager run on the same detections: with random
    # weights the detector's many near-tied boxes make NMS keep other ones when its features
    # differ in the last bits (multithreaded BLAS), which is the FPN detector's own test's
    # concern; here each image's boxes are those of the eager run, the features each run's own.
    model = _model()
    model.use_preset('evaluate')
    imgs = _images(1)
    detect, boxes, calls = model._detect, [], []

    def eager_boxes(img):                            # called for each image in turn
        hs, scale, *detections = detect(img)
        if len(boxes) < len(imgs):
            boxes.append(detections)
        calls.append(img)
        return (hs, scale, *boxes[(len(calls) - 1) % len(imgs)])

    monkeypatch.setattr(model, '_detect', eager_boxes)
    eager = model.predict(imgs)
    model.hybridize()
    assert model.mask_head._static_graph is not None
    masks, labels, scores = model.predict(imgs)
    for mask, expected in zip(masks, eager[0]):
        assert mask.shape == expected.shape and len(mask) > 0
        # a random mask head gives probabilities near 0.5: rounding flips isolated pixels
        assert (mask != expected).sum() <= 1e-5 * mask.size
    for outputs, references in zip((labels, scores), eager[1:]):
        for a, e in zip(outputs, references):
            numpy.testing.assert_array_equal(a, e)
    model.hybridize(False)
    for outputs, references in zip(model.predict(imgs), eager):
        for a, e in zip(outputs, references):
            numpy.testing.assert_array_equal(a, e)


def test_an_npz_file_fixes_n_fg_class_and_holds_the_mask_head(model, tmp_path):
    save_npz(tmp_path / 'model.npz', model)
    loaded = MaskRCNNFPNResNet50(pretrained_model=tmp_path / 'model.npz', min_size=64,
                                 max_size=96, base_channels=4)
    assert loaded.n_class == 4 and loaded.mask_head.n_class == 4
    params = dict(loaded.namedparams())
    assert any(name.startswith('/mask_head/') for name in params)
    for name, param in model.namedparams():
        numpy.testing.assert_array_equal(param.array, params[name].array)


def test_manifest_rows_are_chainercvs():
    for model, url, mask_map, box_map in (
            ('mask_rcnn_fpn_resnet50', 'mask_rcnn_fpn_resnet50_coco_trained_2019_03_15.npz',
             34.2, 38.0),
            ('mask_rcnn_fpn_resnet101', 'mask_rcnn_fpn_resnet101_coco_trained_2019_03_15.npz',
             36.0, 40.4)):
        spec = get_weight(model, 'coco')
        assert spec.source['url'] == f'https://chainercv-models.preferred.jp/{url}'
        assert spec.n_class == 80 and spec.converter == 'chainercv_npz'
        assert [(s['metric'], s['value']) for s in spec.scores] == [('mask mAP', mask_map),
                                                                    ('box mAP', box_map)]
        assert 'eval_instance_segmentation_coco' in spec.scores[0]['protocol']


def test_n_fg_class_contradicting_the_coco_weights_is_refused():
    with pytest.raises(ValueError, match=r"mask_rcnn_fpn_resnet50: n_fg_class=5 contradicts "
                                         r"the weights 'coco'"):
        MaskRCNNFPNResNet50(n_fg_class=5, pretrained_model='coco')


@pytest.mark.parametrize('cls, depth', [(MaskRCNNFPNResNet50, 50), (MaskRCNNFPNResNet101, 101)])
def test_imagenet_weights_are_resnets_for_training(cls, depth):
    spec = get_weight(f'mask_rcnn_fpn_resnet{depth}', 'imagenet')
    assert spec.source['url'] == ('https://chainercv-models.preferred.jp/'
                                  f'resnet{depth}_imagenet_converted_2018_03_07.npz')
    assert spec.n_class is None
    assert [s['value'] for s in spec.scores] == [
        s['value'] for s in get_weight(f'mask_rcnn_fpn_resnet{depth}', 'coco').scores]
    # the row is found and known for ResNet's before anything is fetched
    with pytest.raises(ValueError, match="pretrained_model='imagenet' is ResNet of "
                                         'base_channels 64, but got base_channels=4'):
        _model(cls, pretrained_model='imagenet')

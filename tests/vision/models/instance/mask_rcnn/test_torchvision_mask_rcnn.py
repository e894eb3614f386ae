"""torchvision's COCO Mask R-CNN FPN (``maskrcnn_resnet50_fpn``) converted into
MaskRCNNFPNResNet50(n_fg_class=80): the conversion of its state dict, parity of the mask head
and of the masks with torchvision on weights made by the rule of the fixtures
(tests/data/tv_maskrcnn_resnet50_fpn.npz), and the manifest row. The detector's parts are
tested with the Faster R-CNN fixture (tests/vision/models/detection/fpn/
test_torchvision_fpn.py), which has the same weights."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
import framework.functions as F
from framework.serializers import NpzDeserializer
from vision.datasets import coco_bbox_label_names
from vision.models import MaskRCNNFPNResNet50
from vision.models.detection.fpn.torchvision_fpn import TORCHVISION_CLASSES
from vision.models.instance.mask_rcnn.mask_coding import paste_segm_torchvision
from vision.models.instance.mask_rcnn.torchvision_mask_rcnn import (
    TORCHVISION_MASK_RCNN_KWARGS,
    convert_torchvision_mask_rcnn,
)
from vision.utils.testing.parity import model_shapes, read_params_tsv, rule_state
from vision.weights import get_weight
from vision.weights.convert import converted_path

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'tv_maskrcnn_resnet50_fpn_params.tsv'
UNUSED = [i for i in range(91) if i not in TORCHVISION_CLASSES]
YX = [1, 0, 3, 2]


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'tv_maskrcnn_resnet50_fpn.npz') as f:
        return dict(f)


@pytest.fixture(scope='module')
def spec():
    return get_weight('mask_rcnn_fpn_resnet50', 'torchvision-coco')


@pytest.fixture(scope='module')
def tv_state(fixture):
    state = rule_state(TSV)
    state['roi_heads.box_predictor.cls_score.bias'][UNUSED] = fixture['unused_bias']
    return state


@pytest.fixture(scope='module')
def arrays(tv_state, spec):
    return convert_torchvision_mask_rcnn(tv_state, spec.preprocessing)


@pytest.fixture(scope='module')
def mask_rcnn_tv(fixture, arrays, spec):
    model = MaskRCNNFPNResNet50(n_fg_class=80, min_size=int(fixture['min_size']),
                                max_size=int(fixture['max_size']),
                                mean=spec.preprocessing.model_mean(),
                                **TORCHVISION_MASK_RCNN_KWARGS)
    NpzDeserializer(arrays).load(model)
    model.nms_thresh = float(fixture['nms_thresh'])
    model.score_thresh = float(fixture['score_thresh'])
    return model


def expected_detections(fixture):
    """torchvision's detections in this project's layout and order (by label, then score),
    and where each went."""
    label = numpy.searchsorted(TORCHVISION_CLASSES, fixture['predict/labels']) - 1
    order = numpy.lexsort((-fixture['predict/scores'], label))
    return (fixture['predict/boxes'][order][:, YX], label[order],
            fixture['predict/scores'][order], order)


def test_conversion_gives_every_parameter(arrays):
    shapes = {key: value.shape for key, value in arrays.items() if not key.endswith('/N')}
    assert shapes == model_shapes(MaskRCNNFPNResNet50(n_fg_class=80, arch='fb'))
    assert len(read_params_tsv(TSV)) == len(shapes) == 307


def test_the_old_names_of_the_mask_head_convert_alike(tv_state, spec, arrays):
    old = {key.replace('mask_head.0.0.', 'mask_head.mask_fcn1.')
           .replace('mask_head.3.0.', 'mask_head.mask_fcn4.'): value
           for key, value in tv_state.items()}
    converted = convert_torchvision_mask_rcnn(old, spec.preprocessing)
    assert converted.keys() == arrays.keys()
    numpy.testing.assert_array_equal(converted['mask_head/conv4/conv/W'],
                                     tv_state['roi_heads.mask_head.3.0.weight'])
    numpy.testing.assert_array_equal(
        converted['mask_head/seg/b'],
        tv_state['roi_heads.mask_predictor.mask_fcn_logits.bias'][list(TORCHVISION_CLASSES)])


def test_the_mask_paste_option_is_chainercvs_by_default():
    assert MaskRCNNFPNResNet50(n_fg_class=3, base_channels=8).mask_paste == 'chainercv'
    with pytest.raises(ValueError, match="paste must be 'chainercv' or 'torchvision'"):
        MaskRCNNFPNResNet50(n_fg_class=3, base_channels=8).mask_head.decode(
            [numpy.zeros((0, 4, 28, 28))], [numpy.zeros((0, 4))], [numpy.zeros(0, int)],
            [(5, 5)], paste='opencv')


def test_torchvisions_paste_widens_truncates_and_adds_a_pixel():
    # A box (x1, y1, x2, y2) = (1.2, 2.2, 8.9, 6.1) of a 2x2 grid: widened by 2 about its
    # centre, (-2.65, 0.25, 12.75, 8.05), truncated to (-2, 0, 12, 8): 9 rows, 15 columns
    # from (0, -2), cut at the 12th column; the grid is the middle of the padded 4x4 one.
    mask = paste_segm_torchvision(numpy.ones((1, 2, 2), numpy.float32),
                                  numpy.array([[2.2, 1.2, 6.1, 8.9]], numpy.float32), (10, 12))
    resized = F.resize_images(numpy.pad(numpy.ones((2, 2)), 1)[None, None], (9, 15),
                              align_corners=False).array[0, 0] > 0.5
    expected = numpy.zeros((10, 12), bool)
    expected[0:9, 0:12] = resized[:, 2:14]
    numpy.testing.assert_array_equal(mask[0], expected)


@pytest.mark.slow
def test_the_mask_head_on_torchvisions_detections_is_torchvisions(mask_rcnn_tv, fixture):
    x, scales = mask_rcnn_tv.prepare([fixture['image'].astype(numpy.float32)])
    with framework.using_config('train', False), framework.no_backprop_mode():
        hs = mask_rcnn_tv.extractor(x)
        # torchvision pools the detections in the resized image, before scaling them back.
        size = numpy.asarray(fixture['image'].shape[1:], numpy.float32)
        resized = numpy.asarray(mask_rcnn_tv.resized_size(fixture['image'].shape[1:])[1],
                                numpy.float32)
        rows = fixture['mask_rows']
        rois = fixture['predict/boxes'][rows][:, YX] * numpy.tile(resized / size, 2)
        rois, indices, order = mask_rcnn_tv.mask_head.distribute(
            rois.astype(numpy.float32), numpy.zeros(len(rows), numpy.int32))
        logits = mask_rcnn_tv.mask_head(hs, rois, indices).array[order]
    labels = numpy.searchsorted(TORCHVISION_CLASSES, fixture['predict/labels'][rows])
    probs = 1 / (1 + numpy.exp(-logits[numpy.arange(len(rows)), labels]))
    numpy.testing.assert_allclose(probs, fixture['mask_probs'], atol=1e-4)
    boxes = fixture['predict/boxes'][rows][:, YX]
    masks = paste_segm_torchvision(fixture['mask_probs'], boxes, fixture['image'].shape[1:])
    expected = numpy.unpackbits(fixture['masks'], axis=-1)[..., :fixture['mask_width']]
    numpy.testing.assert_array_equal(masks, expected.astype(bool))


@pytest.mark.slow
@pytest.mark.parametrize('hybridize', [False, True])
def test_predict_is_torchvisions(mask_rcnn_tv, fixture, hybridize):
    mask_rcnn_tv.hybridize(hybridize)
    (mask,), (label,), (score,) = mask_rcnn_tv.predict([fixture['image']])
    mask_rcnn_tv.hybridize(False)
    _, expected_label, expected_score, order = expected_detections(fixture)
    assert len(mask) == fixture['detections_per_img']
    numpy.testing.assert_array_equal(label, expected_label)
    numpy.testing.assert_allclose(score, expected_score, atol=5e-4)
    # The recorded masks are those of every 4th detection in torchvision's order.
    where = numpy.argsort(order)[fixture['mask_rows']]
    expected = numpy.unpackbits(fixture['masks'], axis=-1)[..., :fixture['mask_width']]
    assert expected.any()
    differ = mask[where] != expected.astype(bool)
    # Pixels whose probability is within float32 rounding of 0.5 may differ.
    assert differ.sum() <= max(2, expected.sum() // 200)


def test_manifest_row_is_torchvisions(spec):
    assert spec.source['url'] == ('https://download.pytorch.org/models/'
                                  'maskrcnn_resnet50_fpn_coco-bf2d0c1e.pth')
    assert (spec.sha256, spec.sha256_prefix) == (None, 'bf2d0c1e')
    assert spec.converter == 'torchvision_mask_rcnn' and spec.n_class == 80
    assert spec.label_names == tuple(coco_bbox_label_names)
    assert [(s['metric'], s['value']) for s in spec.scores] == [('mask mAP', 34.6),
                                                                 ('box mAP', 37.9)]


@pytest.mark.slow
def test_weights_by_name_bring_torchvisions_options(vision_home, arrays, spec):
    path = pathlib.Path(converted_path(spec))
    path.parent.mkdir(parents=True)
    numpy.savez(path, **arrays)
    model = MaskRCNNFPNResNet50(pretrained_model='torchvision-coco')
    assert model.n_class == 81 and model.weight_spec == spec
    assert (model.arch, model.mask_paste, model.per_axis_rescale) == ('fb', 'torchvision', True)
    assert model.rpn.anchor_layout == 'torchvision'
    numpy.testing.assert_array_equal(model.mask_head.seg.W.array, arrays['mask_head/seg/W'])

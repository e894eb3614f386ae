"""torchvision's COCO Faster R-CNN FPN (``fasterrcnn_resnet50_fpn``) converted into
FasterRCNNFPNResNet50(n_fg_class=80): the conversion of its state dict, parity with torchvision
part by part on weights made by the rule of the fixtures
(tests/data/tv_fasterrcnn_resnet50_fpn.npz), and the manifest row."""

from __future__ import annotations

import pathlib

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.datasets import coco_bbox_label_names
from vision.models import FasterRCNNFPNResNet50
from vision.models.detection.fpn.faster_rcnn_fpn_resnet import OPTIONS
from vision.models.detection.fpn.rpn import RPN
from vision.models.detection.fpn.torchvision_fpn import (
    BN_EPS,
    TORCHVISION_CLASSES,
    TORCHVISION_FPN_KWARGS,
    convert_torchvision_fpn,
)
from vision.utils.testing.parity import model_shapes, read_params_tsv, rule_state
from vision.weights import get_weight
from vision.weights.convert import converted_path

DATA = pathlib.Path(__file__).resolve().parents[4] / 'data'
TSV = DATA / 'tv_fasterrcnn_resnet50_fpn_params.tsv'
UNUSED = [i for i in range(91) if i not in TORCHVISION_CLASSES]
YX = [1, 0, 3, 2]


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'tv_fasterrcnn_resnet50_fpn.npz') as f:
        return dict(f)


@pytest.fixture(scope='module')
def spec():
    return get_weight('faster_rcnn_fpn_resnet50', 'torchvision-coco')


@pytest.fixture(scope='module')
def tv_state(fixture):
    """torchvision's state dict as the fixture's script filled it: the rule, and the unused
    categories' biases of ``cls_score`` at ``unused_bias``."""
    state = rule_state(TSV)
    state['roi_heads.box_predictor.cls_score.bias'][UNUSED] = fixture['unused_bias']
    return state


@pytest.fixture(scope='module')
def arrays(tv_state, spec):
    return convert_torchvision_fpn(tv_state, spec.preprocessing)


@pytest.fixture(scope='module')
def fpn_tv(fixture, arrays, spec):
    """FasterRCNNFPNResNet50(n_fg_class=80) with torchvision's options, the fixture's sizes
    and its converted rule weights."""
    model = FasterRCNNFPNResNet50(n_fg_class=80, min_size=int(fixture['min_size']),
                                  max_size=int(fixture['max_size']),
                                  mean=spec.preprocessing.model_mean(), **TORCHVISION_FPN_KWARGS)
    NpzDeserializer(arrays).load(model)
    return model


@pytest.fixture(scope='module')
def outputs(fpn_tv, fixture):
    """The prepared input, the levels, the RPN's outputs and anchors for the fixture's image."""
    x, scales = fpn_tv.prepare([fixture['image'].astype(numpy.float32)])
    with framework.using_config('train', False), framework.no_backprop_mode():
        hs = fpn_tv.extractor(x)
        locs, confs = fpn_tv.rpn(hs)
    anchors = fpn_tv.rpn.anchors((h.shape[2:] for h in hs), x.shape[2:])
    return x, hs, locs, confs, anchors


def test_conversion_gives_every_parameter(arrays):
    shapes = {key: value.shape for key, value in arrays.items() if not key.endswith('/N')}
    model = FasterRCNNFPNResNet50(n_fg_class=80, arch='fb')
    assert shapes == model_shapes(model)
    assert len(read_params_tsv(TSV)) == len(shapes) == 295


def test_the_old_names_of_the_checkpoint_convert_alike(tv_state, spec, arrays):
    old = {key.replace('_blocks.0.0.', '_blocks.0.').replace('_blocks.1.0.', '_blocks.1.')
           .replace('_blocks.2.0.', '_blocks.2.').replace('_blocks.3.0.', '_blocks.3.')
           .replace('rpn.head.conv.0.0.', 'rpn.head.conv.'): value
           for key, value in tv_state.items()}
    assert 'backbone.fpn.inner_blocks.3.weight' in old and 'rpn.head.conv.weight' in old
    converted = convert_torchvision_fpn(old, spec.preprocessing)
    assert converted.keys() == arrays.keys()
    for key, value in converted.items():
        numpy.testing.assert_array_equal(value, arrays[key])


def test_rows_are_rearranged_and_batch_normalizations_folded(tv_state, spec, arrays):
    loc = tv_state['rpn.head.bbox_pred.bias'].reshape(3, 4)
    numpy.testing.assert_array_equal(arrays['rpn/loc/b'].reshape(3, 4), loc[:, YX])
    reg = tv_state['roi_heads.box_predictor.bbox_pred.weight'].reshape(91, 4, 1024)
    numpy.testing.assert_array_equal(arrays['bbox_head/loc/W'].reshape(81, 4, 1024),
                                     reg[TORCHVISION_CLASSES, :][:, YX])
    numpy.testing.assert_array_equal(arrays['bbox_head/conf/b'],
                                     tv_state['roi_heads.box_predictor.cls_score.bias']
                                     [list(TORCHVISION_CLASSES)])
    gamma = tv_state['backbone.body.layer2.0.bn2.weight']
    var = tv_state['backbone.body.layer2.0.bn2.running_var']
    numpy.testing.assert_allclose(arrays['extractor/base/res3/a/conv2/bn/gamma'],
                                  gamma * numpy.sqrt((var + BN_EPS) / var), rtol=1e-6)
    scale = 1 / (255 * numpy.array(spec.preprocessing.std))
    numpy.testing.assert_allclose(arrays['extractor/base/conv1/conv/W'],
                                  tv_state['backbone.body.conv1.weight']
                                  * scale[None, :, None, None], rtol=1e-6)


def test_a_foreign_key_or_head_is_refused(tv_state, spec):
    with pytest.raises(ValueError, match="torchvision_fpn: the checkpoint has the key "
                                         "'roi_heads.mask_head.mask_fcn1.weight'"):
        convert_torchvision_fpn({**tv_state, 'roi_heads.mask_head.mask_fcn1.weight':
                                 numpy.zeros((256, 256, 3, 3))}, spec.preprocessing)
    narrow = {**tv_state, 'roi_heads.box_predictor.cls_score.bias': numpy.zeros(21)}
    with pytest.raises(ValueError, match='cls_score has 21 outputs, not 91'):
        convert_torchvision_fpn(narrow, spec.preprocessing)


def test_chainercvs_options_stay_the_defaults():
    model = FasterRCNNFPNResNet50(n_fg_class=3, base_channels=8)
    assert OPTIONS['arch'] == model.arch == 'he'
    assert (model.antialias, model.per_axis_rescale, model.min_bbox_size,
            model.detections_per_img) == (True, False, 0., None)
    assert (model.rpn.anchor_layout, model.rpn.clip_to_image, model.rpn.min_roi_size,
            model.rpn.rank_by_probability) == ('chainercv', False, 0., False)
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['anchors'\\]"):
        FasterRCNNFPNResNet50(n_fg_class=3, base_channels=8, anchors='torchvision')


def test_anchors_are_torchvisions(fixture):
    rpn = RPN((1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64), channels=8, anchor_layout='torchvision')
    H, W = fixture['in_size']
    sizes = [(H // 4, W // 4), (H // 8, W // 8), (H // 16, W // 16), (H // 32, W // 32),
             (-(-H // 64), -(-W // 64))]
    anchors = numpy.concatenate(rpn.anchors(sizes, (H, W)))
    numpy.testing.assert_array_equal(anchors[:, YX], fixture['anchors'])
    # 46x22 at ratio 0.5 on the first level, the fifth level's stride 56 by 57 here.
    assert tuple(anchors[0]) == (-11, -23, 11, 23)
    assert sizes[4] == (4, 5)
    assert tuple(anchors[-1] - anchors[-4]) == (0, 57, 0, 57)
    assert tuple(anchors[-1] - anchors[-16]) == (56, 0, 56, 0)
    with pytest.raises(ValueError, match='needs in_size'):
        rpn.anchors(sizes)


def test_the_image_is_prepared_as_torchvision_prepares_it(fpn_tv, fixture):
    img = fixture['image'].astype(numpy.float32)
    x, scales = fpn_tv.prepare([img])
    assert x.shape[2:] == tuple(fixture['in_size'])
    assert fpn_tv.resized_size(img.shape[1:])[1] == tuple(fixture['image_size'])
    std = 255 * fixture['image_std'].astype(numpy.float32)[:, None, None]
    numpy.testing.assert_allclose(x[0][:, fixture['prepared_rows']] / std, fixture['prepared'],
                                  atol=1e-4)


@pytest.mark.slow
def test_the_pyramid_and_the_rpn_are_torchvisions(outputs, fixture):
    _, hs, locs, confs, anchors = outputs
    for name, h in zip(('0', '1', '2', '3', 'pool'), hs):
        expected = fixture[f'features/{name}']
        numpy.testing.assert_allclose(h.array[0, fixture['channels']], expected, rtol=1e-4,
                                      atol=2e-5 * numpy.abs(expected).max())
    numpy.testing.assert_array_equal(numpy.concatenate(anchors)[:, YX], fixture['anchors'])
    rows = fixture['rows']
    for actual, expected in ((numpy.concatenate([c.array[0] for c in confs]),
                              fixture['rpn/objectness']),
                             (numpy.concatenate([c.array[0] for c in locs]),
                              fixture['rpn/deltas'][:, YX])):
        numpy.testing.assert_allclose(actual[rows], expected, rtol=1e-4,
                                      atol=2e-5 * numpy.abs(expected).max())


@pytest.mark.slow
def test_the_proposals_are_torchvisions(fpn_tv, outputs, fixture):
    x, _, locs, confs, anchors = outputs
    with framework.using_config('train', False):
        rois, roi_indices = fpn_tv.rpn.decode(locs, confs, anchors, x.shape,
                                              [tuple(fixture['image_size'])])
    expected = fixture['proposals'][:, YX]
    assert rois.shape == expected.shape and (roi_indices == 0).all()
    # Each proposal is torchvision's within the offsets' float32 rounding (about 1e-4) times
    # sizes up to exp(4.1) anchors, at its place or at its neighbour's: two proposals whose
    # logits are closer than that rounding (2.36356 and 2.36359 here) may swap.
    apart = numpy.flatnonzero(numpy.abs(rois - expected).max(axis=1) >= 0.05)
    assert len(apart) <= 4 and len(apart) % 2 == 0
    for i in apart[::2]:
        numpy.testing.assert_allclose(rois[[i, i + 1]], expected[[i + 1, i]], atol=0.05)
    numpy.testing.assert_allclose(numpy.delete(rois, apart, axis=0),
                                  numpy.delete(expected, apart, axis=0), atol=0.05)


@pytest.mark.slow
def test_the_box_head_on_torchvisions_proposals_is_torchvisions(fpn_tv, outputs, fixture):
    _, hs, _, _, _ = outputs
    proposals = numpy.ascontiguousarray(fixture['proposals'][:, YX])
    rois, roi_indices, order = fpn_tv.bbox_head.distribute_in_order(
        proposals, numpy.zeros(len(proposals), numpy.int32))
    with framework.using_config('train', False), framework.no_backprop_mode():
        locs, confs = fpn_tv.bbox_head(hs, rois, roi_indices)
    rows = order[fixture['proposal_rows']]
    logits = fixture['box/class_logits'][:, list(TORCHVISION_CLASSES)]
    regression = fixture['box/box_regression'].reshape(-1, 91, 4)[:, list(TORCHVISION_CLASSES)]
    for actual, expected in ((confs.array[rows], logits),
                             (locs.array[rows], regression[:, :, YX])):
        numpy.testing.assert_allclose(actual, expected, rtol=1e-4,
                                      atol=2e-5 * numpy.abs(expected).max())


@pytest.mark.slow
@pytest.mark.parametrize('hybridize', [False, True])
def test_predict_is_torchvisions(fpn_tv, fixture, hybridize):
    fpn_tv.nms_thresh = float(fixture['nms_thresh'])
    fpn_tv.score_thresh = float(fixture['score_thresh'])
    fpn_tv.hybridize(hybridize)
    (bbox,), (label,), (score,) = fpn_tv.predict([fixture['image']])
    fpn_tv.hybridize(False)
    # torchvision's boxes are (x1, y1, x2, y2), its labels category ids, its order by score;
    # ours are (y1, x1, y2, x2), labels 0 to 79, by label then score.
    expected_label = numpy.searchsorted(TORCHVISION_CLASSES, fixture['predict/labels']) - 1
    order = numpy.lexsort((-fixture['predict/scores'], expected_label))
    expected_bbox = fixture['predict/boxes'][order][:, YX]
    expected_label, expected_score = expected_label[order], fixture['predict/scores'][order]
    assert len(bbox) == len(expected_bbox) == fixture['detections_per_img']
    numpy.testing.assert_array_equal(label, expected_label)
    numpy.testing.assert_allclose(score, expected_score, atol=5e-4)
    numpy.testing.assert_allclose(bbox, expected_bbox, atol=0.05)


def test_manifest_row_is_torchvisions(spec):
    assert spec.source['url'] == ('https://download.pytorch.org/models/'
                                  'fasterrcnn_resnet50_fpn_coco-258fb6c6.pth')
    assert (spec.sha256, spec.sha256_prefix) == (None, '258fb6c6')
    assert spec.converter == 'torchvision_fpn' and spec.n_class == 80
    assert spec.label_names == tuple(coco_bbox_label_names)
    numpy.testing.assert_allclose(spec.preprocessing.model_mean().ravel(),
                                  (123.675, 116.28, 103.53), rtol=1e-6)
    numpy.testing.assert_allclose(spec.preprocessing.input_scale(),
                                  1 / (255 * numpy.array((0.229, 0.224, 0.225))))
    assert [(s['metric'], s['value'], s['dataset']) for s in spec.scores] == [
        ('box mAP', 37.0, 'COCO val2017, 5,000 images')]


@pytest.mark.slow
def test_weights_by_name_bring_torchvisions_options(vision_home, arrays, spec):
    path = pathlib.Path(converted_path(spec))
    path.parent.mkdir(parents=True)
    numpy.savez(path, **arrays)
    model = FasterRCNNFPNResNet50(pretrained_model='torchvision-coco')
    assert model.n_class == 81 and model.weight_spec == spec
    assert model.arch == 'fb' and (model.min_size, model.max_size) == (800, 1333)
    assert (model.antialias, model.per_axis_rescale, model.min_bbox_size,
            model.detections_per_img) == (False, True, 1e-2, 100)
    assert (model.rpn.anchor_layout, model.rpn.clip_to_image, model.rpn.min_roi_size,
            model.rpn.rank_by_probability) == ('torchvision', True, 1e-3, True)
    numpy.testing.assert_array_equal(model.extractor.mean, spec.preprocessing.model_mean())
    numpy.testing.assert_array_equal(model.bbox_head.loc.W.array, arrays['bbox_head/loc/W'])
    given = FasterRCNNFPNResNet50(pretrained_model='torchvision-coco', antialias=True,
                                  detections_per_img=None)
    assert (given.antialias, given.detections_per_img, given.per_axis_rescale) == (
        True, None, True)

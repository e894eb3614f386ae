"""FasterRCNNFPNResNet50 against ChainerCV 0.13.1's ``MaskRCNNFPNResNet50(n_fg_class=80)``,
which shares its extractor, FPN, RPN and box head, with the weights rebuilt by the fixtures'
rule (``tests/data/chainercv_mask_rcnn_fpn_resnet50*``, the mask head's entries left out):
the parameter names and shapes, the scale ``prepare`` chose, a 4x4 corner of each level,
the RPN's outputs of every 37th anchor and the box head's outputs for three fixed regions in
the order ``distribute`` puts them (slow: the network runs on 800x1088 pixels, 30 s).
FasterRCNNFPNResNet101's names and shapes against ChainerCV's
(``chainercv_faster_rcnn_fpn_resnet101_params.tsv``, made by ``make_chainercv_fpn_fixtures.py``)."""

from __future__ import annotations

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.models import FasterRCNNFPNResNet50, FasterRCNNFPNResNet101
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes

from .conftest import DATA

TSV = DATA / 'chainercv_mask_rcnn_fpn_resnet50_params.tsv'
MASK_HEAD = 'mask_head/'


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'chainercv_mask_rcnn_fpn_resnet50.npz') as f:
        return dict(f)


@pytest.fixture(scope='module')
def outputs(fixture):
    """The model filled by the rule, and its prepared input, levels and RPN outputs."""
    model = FasterRCNNFPNResNet50(n_fg_class=80)
    expected = {k: v for k, v in tsv_shapes(TSV).items() if not k.startswith(MASK_HEAD)}
    assert model_shapes(model) == expected
    state = {k: v for k, v in rule_npz_state(TSV).items() if not k.startswith(MASK_HEAD)}
    NpzDeserializer(state, ignore_names=lambda key: key.endswith('/N')).load(model)
    x, scales = model.prepare([fixture['input']])
    with framework.using_config('train', False), framework.no_backprop_mode():
        hs = model.extractor(x)
        locs, confs = model.rpn(hs)
    return model, x, scales, hs, locs, confs


def _assert_parity(actual, expected):
    """The fixtures' tolerance: ``rtol=1e-3`` and ``atol=1e-4`` of the output's scale."""
    numpy.testing.assert_allclose(actual, expected, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected).max())


@pytest.mark.slow
def test_prepare(outputs, fixture):
    _, x, scales, _, _, _ = outputs
    assert x.shape == (1, 3, 800, 1088)  # 480x640 scaled to 800x1066, padded to 32
    numpy.testing.assert_allclose(scales, [fixture['prepared_scale']], rtol=1e-6)


@pytest.mark.slow
def test_levels(outputs, fixture):
    hs = outputs[3]
    assert [h.shape[2:] for h in hs] == [(200, 272), (100, 136), (50, 68), (25, 34), (13, 17)]
    for level, h in enumerate(hs):
        _assert_parity(h.array[:, :, :4, :4], fixture[f'out/fpn{level}_center'])


@pytest.mark.slow
def test_rpn_outputs(outputs, fixture):
    locs, confs = outputs[4:]
    _assert_parity(numpy.concatenate([loc.array for loc in locs], axis=1)[:, ::37],
                   fixture['out/rpn_locs_every37'])
    _assert_parity(numpy.concatenate([conf.array for conf in confs], axis=1)[:, ::37],
                   fixture['out/rpn_confs_every37'])


@pytest.mark.slow
def test_box_head_outputs(outputs, fixture):
    model, _, _, hs, _, _ = outputs
    rois, roi_indices = model.bbox_head.distribute(fixture['fixed_rois'],
                                                   numpy.zeros(3, numpy.int32))
    numpy.testing.assert_array_equal(numpy.concatenate(rois), fixture['head_rois_order'])
    with framework.using_config('train', False), framework.no_backprop_mode():
        locs, confs = model.bbox_head(hs, rois, roi_indices)
    _assert_parity(locs.array, fixture['out/head_locs'])
    _assert_parity(confs.array, fixture['out/head_confs'])


def test_resnet101_has_chainercvs_parameters():
    tsv = DATA / 'chainercv_faster_rcnn_fpn_resnet101_params.tsv'
    assert model_shapes(FasterRCNNFPNResNet101(n_fg_class=80)) == tsv_shapes(tsv)

"""MaskHead against ChainerCV 0.13.1's ``MaskRCNNFPNResNet50(n_fg_class=80)`` with the weights
rebuilt by the fixtures' rule (``tests/data/chainercv_mask_rcnn_fpn_resnet50*``): the mask
head's parameter names and shapes, and its logits for three fixed regions of image 0 in the
order ``distribute`` puts them, on the pyramid of the FPN detector that shares ChainerCV's
extractor (slow: the network runs on 800x1088 pixels, 30 s)."""

from __future__ import annotations

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.models import FasterRCNNFPNResNet50
from vision.models.instance.mask_rcnn import MaskHead
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes

from .conftest import DATA, SCALES

TSV = DATA / 'chainercv_mask_rcnn_fpn_resnet50_params.tsv'
MASK_HEAD = 'mask_head/'


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'chainercv_mask_rcnn_fpn_resnet50.npz') as f:
        return dict(f)


def _mask_head_state(state):
    return {k[len(MASK_HEAD):]: v for k, v in state.items() if k.startswith(MASK_HEAD)}


def test_mask_head_has_chainercvs_parameters():
    assert model_shapes(MaskHead(81, SCALES)) == _mask_head_state(tsv_shapes(TSV))


@pytest.mark.slow
def test_mask_head_outputs(fixture):
    state = rule_npz_state(TSV)
    detector = FasterRCNNFPNResNet50(n_fg_class=80)
    NpzDeserializer({k: v for k, v in state.items() if not k.startswith(MASK_HEAD)},
                    ignore_names=lambda key: key.endswith('/N')).load(detector)
    head = MaskHead(81, SCALES)
    NpzDeserializer(_mask_head_state(state)).load(head)
    x, _ = detector.prepare([fixture['input']])
    rois, roi_indices, order = head.distribute(fixture['fixed_rois'],
                                               numpy.zeros(3, numpy.int32))
    numpy.testing.assert_array_equal(numpy.concatenate(rois), fixture['mask_rois_order'])
    numpy.testing.assert_array_equal(numpy.concatenate(rois)[order], fixture['fixed_rois'])
    with framework.using_config('train', False), framework.no_backprop_mode():
        segms = head(detector.extractor(x), rois, roi_indices).array
    expected = fixture['out/mask_logits']
    # the fixtures' tolerance: rtol=1e-3 and atol=1e-4 of the output's scale
    numpy.testing.assert_allclose(segms, expected, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected).max())

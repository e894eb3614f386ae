"""MaskRCNNFPNResNet50 against ChainerCV 0.13.1's ``MaskRCNNFPNResNet50(n_fg_class=80)`` with
the weights rebuilt by the fixtures' rule (``tests/data/chainercv_mask_rcnn_fpn_resnet50*``):
the parameter names and shapes (the mask head's alone, and the whole model's), and the mask
head's logits for three fixed regions of image 0 in the order ``distribute`` puts them (slow:
the network runs on 800x1088 pixels, 30 s). The extractor, RPN and box head are the FPN
detector's, checked by ``tests/vision/models/detection/fpn/test_chainercv_parity.py``."""

from __future__ import annotations

import numpy
import pytest

import framework
from framework.serializers import NpzDeserializer
from vision.models import MaskRCNNFPNResNet50
from vision.models.instance.mask_rcnn import MaskHead
from vision.utils.testing.parity import model_shapes, rule_npz_state, tsv_shapes

from .conftest import DATA, SCALES

TSV = DATA / 'chainercv_mask_rcnn_fpn_resnet50_params.tsv'
MASK_HEAD = 'mask_head/'


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'chainercv_mask_rcnn_fpn_resnet50.npz') as f:
        return dict(f)


def test_mask_head_has_chainercvs_parameters():
    expected = {k[len(MASK_HEAD):]: v for k, v in tsv_shapes(TSV).items()
                if k.startswith(MASK_HEAD)}
    assert model_shapes(MaskHead(81, SCALES)) == expected


@pytest.mark.slow
def test_mask_head_outputs(fixture):
    model = MaskRCNNFPNResNet50(n_fg_class=80)
    assert model_shapes(model) == tsv_shapes(TSV)
    NpzDeserializer(rule_npz_state(TSV), ignore_names=lambda key: key.endswith('/N')).load(model)
    x, _ = model.prepare([fixture['input']])
    rois, roi_indices, order = model.mask_head.distribute(fixture['fixed_rois'],
                                                          numpy.zeros(3, numpy.int32))
    numpy.testing.assert_array_equal(numpy.concatenate(rois), fixture['mask_rois_order'])
    numpy.testing.assert_array_equal(numpy.concatenate(rois)[order], fixture['fixed_rois'])
    with framework.using_config('train', False), framework.no_backprop_mode():
        segms = model.mask_head(model.extractor(x), rois, roi_indices).array
    expected = fixture['out/mask_logits']
    # the fixtures' tolerance: rtol=1e-3 and atol=1e-4 of the output's scale (the largest
    # difference is 8e-5 of the scale 58, 1.4e-6 of it)
    numpy.testing.assert_allclose(segms, expected, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected).max())

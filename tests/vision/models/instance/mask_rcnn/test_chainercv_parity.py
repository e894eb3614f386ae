"""MaskRCNNFPNResNet50 against ChainerCV 0.13.1's ``MaskRCNNFPNResNet50(n_fg_class=80)`` with
the weights rebuilt by the fixtures' rule (``tests/data/chainercv_mask_rcnn_fpn_resnet50*``):
the parameter names and shapes (the mask head's alone, and the whole model's), the mask
head's logits for three fixed regions of image 0 in the order ``distribute`` puts them, and
the masks of three boxes (slow: the network runs on 800x1088 pixels, 30 s). The extractor, RPN
and box head are the FPN detector's, checked by
``tests/vision/models/detection/fpn/test_chainercv_parity.py``."""

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


@pytest.fixture(scope='module')
def model_and_levels(fixture):
    """The model filled by the rule, the levels of the prepared input and its scale."""
    model = MaskRCNNFPNResNet50(n_fg_class=80)
    assert model_shapes(model) == tsv_shapes(TSV)
    NpzDeserializer(rule_npz_state(TSV), ignore_names=lambda key: key.endswith('/N')).load(model)
    x, scales = model.prepare([fixture['input']])
    with framework.using_config('train', False), framework.no_backprop_mode():
        return model, model.extractor(x), scales[0]


@pytest.mark.slow
def test_mask_head_outputs(fixture, model_and_levels):
    model, hs, _ = model_and_levels
    rois, roi_indices, order = model.mask_head.distribute(fixture['fixed_rois'],
                                                          numpy.zeros(3, numpy.int32))
    numpy.testing.assert_array_equal(numpy.concatenate(rois), fixture['mask_rois_order'])
    numpy.testing.assert_array_equal(numpy.concatenate(rois)[order], fixture['fixed_rois'])
    with framework.using_config('train', False), framework.no_backprop_mode():
        segms = model.mask_head(hs, rois, roi_indices).array
    expected = fixture['out/mask_logits']
    # the fixtures' tolerance: rtol=1e-3 and atol=1e-4 of the output's scale (the largest
    # difference is 8e-5 of the scale 58, 1.4e-6 of it)
    numpy.testing.assert_allclose(segms, expected, rtol=1e-3,
                                  atol=1e-4 * numpy.abs(expected).max())


@pytest.mark.slow
def test_the_masks_of_boxes_are_chainercvs(fixture, model_and_levels):
    """The mask branch of ``predict`` for three boxes that ``distribute`` reorders
    (``chainercv_mask_rcnn_predict_masks.npz``, made by
    ``make_chainercv_mask_rcnn_fixtures.py``): masks in the boxes' order."""
    model, hs, scale = model_and_levels
    with numpy.load(DATA / 'chainercv_mask_rcnn_predict_masks.npz') as f:
        expected = dict(f)
    assert list(expected['order']) == [2, 0, 1]
    masks = model._segment(hs, scale, expected['bboxes'], expected['labels'],
                           fixture['input'].shape[1:])
    assert masks.shape == expected['masks'].shape == (3, 480, 640)
    # probabilities within rounding of 0.5 may flip a pixel (none does here)
    assert (masks != expected['masks']).sum(axis=(1, 2)).max() <= 3
    assert expected['masks'].sum(axis=(1, 2)).min() > 1000

"""segm_to_mask, mask_to_segm, mask_head_loss_pre and mask_head_loss_post against ChainerCV
0.13.1's with OpenCV on random inputs (``tests/data/chainercv_mask_rcnn_coding.npz``, made by
``make_chainercv_mask_rcnn_fixtures.py``): the same masks, grids and regions, pixel for pixel,
and the same loss."""

from __future__ import annotations

import numpy
import pytest

import framework
from vision.models.instance.mask_rcnn import (
    mask_head_loss_post,
    mask_head_loss_pre,
    mask_to_segm,
    segm_to_mask,
)

from .conftest import DATA


@pytest.fixture(scope='module')
def fixture():
    with numpy.load(DATA / 'chainercv_mask_rcnn_coding.npz') as f:
        return dict(f)


def _levels(fixture, key, n):
    return [fixture[f'loss/{key}/{i}'] for i in range(n)]


def test_segm_to_mask_is_chainercvs(fixture):
    mask = segm_to_mask(fixture['segm_to_mask/segm'], fixture['segm_to_mask/bbox'], (60, 80))
    numpy.testing.assert_array_equal(mask, fixture['segm_to_mask/mask'])


def test_mask_to_segm_is_chainercvs(fixture):
    segm = mask_to_segm(fixture['mask_to_segm/mask'], fixture['mask_to_segm/bbox'], 28,
                        fixture['mask_to_segm/index'])
    numpy.testing.assert_array_equal(segm, fixture['mask_to_segm/segm'])
    assert segm.sum() > 0


def test_mask_head_loss_is_chainercvs(fixture):
    outputs = mask_head_loss_pre(
        _levels(fixture, 'rois', 3), _levels(fixture, 'roi_indices', 3),
        _levels(fixture, 'gt_masks', 2), _levels(fixture, 'gt_bboxes', 2),
        _levels(fixture, 'gt_head_labels', 3), 14)
    for key, actual in zip(('mask_rois', 'mask_roi_indices', 'gt_segms', 'gt_mask_labels'),
                           outputs):
        for a, e in zip(actual, _levels(fixture, key, 3), strict=True):
            numpy.testing.assert_array_equal(a, e, err_msg=key)
    loss = mask_head_loss_post(framework.Variable(fixture['loss/segms']), *outputs[1:], 2)
    numpy.testing.assert_allclose(loss.array, fixture['loss/loss'], rtol=1e-6)

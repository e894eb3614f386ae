"""FCISResNet101 against ChainerCV 0.13.1's experimental ``FCISResNet101(n_fg_class=20)`` with
the weights of the fixtures' rule (``tests/data/chainercv_fcis_resnet101*``, made by
``make_chainercv_fcis_fixtures.py``, whose docstring says what changes the rule's weights and
the model's arguments): the parameter names and shapes, the raw outputs of ``model(x)`` and
``predict``'s masks, labels and scores (the network runs on 240x320 pixels, a few seconds)."""

from __future__ import annotations

import numpy
import pytest

import framework
from vision.utils.testing.parity import model_shapes, tsv_shapes

from .conftest import TSV, chainercv_image, chainercv_model


def test_the_parameters_are_chainercvs(chainercv_fcis):
    assert model_shapes(chainercv_model(chainercv_fcis, weights=False)) == tsv_shapes(TSV)


@pytest.fixture(scope='module')
def model_and_image(chainercv_fcis):
    return chainercv_model(chainercv_fcis), chainercv_image(chainercv_fcis)


def _assert_close(actual, expected, rtol=1e-3, atol=1e-4):
    """The fixtures' tolerance: ``rtol`` and ``atol`` of the output's scale."""
    numpy.testing.assert_allclose(actual, expected, rtol=rtol,
                                  atol=atol * numpy.abs(expected).max())


def test_the_raw_outputs_are_chainercvs(chainercv_fcis, model_and_image):
    model, img = model_and_image
    x = model.prepare(img)[None]
    with framework.using_config('train', False), framework.no_backprop_mode():
        seg, locs, cls, rois, roi_indices = model(x)
    expected_rois = chainercv_fcis['out/rois']
    assert len(expected_rois) == 2 * int(chainercv_fcis['n_test_post_nms'])
    numpy.testing.assert_array_equal(roi_indices, chainercv_fcis['out/roi_indices'])
    numpy.testing.assert_allclose(rois, expected_rois, rtol=1e-4, atol=1e-3)
    _assert_close(locs.array, chainercv_fcis['out/roi_ag_locs'])
    _assert_close(cls.array, chainercv_fcis['out/roi_cls_scores'])
    _assert_close(seg.array[::int(chainercv_fcis['roi_step'])],
                  chainercv_fcis['out/roi_ag_seg_scores'])


def test_predict_is_chainercvs(chainercv_fcis, model_and_image):
    """100 objects. A region of the second pass often pools the same bins as its region of the
    first (it moved by less than a feature pixel): both have exactly the same probabilities,
    and which one suppression keeps changes the regions that vote for the mask; mask voting
    visits the later one first, as ChainerCV's reversed ``argsort`` does."""
    model, img = model_and_image
    model.use_preset('evaluate')
    thresholds = [model.nms_thresh, model.score_thresh, model.mask_merge_thresh,
                  model.binary_thresh, model.limit, model.min_drop_size]
    numpy.testing.assert_array_equal(thresholds, chainercv_fcis['predict/thresholds'])
    (masks,), (labels,), (scores,) = model.predict([img])
    shape = tuple(chainercv_fcis['predict/mask_shape'])
    expected = numpy.unpackbits(chainercv_fcis['predict/masks'], axis=-1,
                                count=shape[-1]).astype(bool)
    assert masks.shape == expected.shape == shape and shape[0] == 100
    numpy.testing.assert_array_equal(labels, chainercv_fcis['predict/labels'])
    numpy.testing.assert_allclose(scores, chainercv_fcis['predict/scores'], rtol=1e-4)
    # a probability within rounding of the threshold may flip a pixel
    assert (masks != expected).sum(axis=(1, 2)).max() <= 3

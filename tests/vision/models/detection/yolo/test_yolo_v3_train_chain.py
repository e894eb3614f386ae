"""YOLOv3TrainChain on a tiny YOLOv3 (width 2, 64x64): the assignment of the ground truth, the
boxes left out of the objectness loss, the gradients of the loss and a few steps of training."""

from __future__ import annotations

import numpy
import pytest

import framework.functions as F
from framework.optimizers import MomentumSGD
from framework.testing.gradient_check import check_backward
from vision.models.detection.yolo import YOLOv3, YOLOv3TrainChain
from vision.utils import bbox_iou

# A tall box centred in cell (1, 2) of the 4x4 map (step 16), whose shape is the anchor
# (61, 30) of that map's first anchors; a small one in cell (5, 1) of the 8x8 map (step 8),
# near the anchor (13, 10).
BBOX = numpy.array([[-5.5, 25, 55.5, 55], [38, 10, 50, 20]], numpy.float32)
LABEL = numpy.array([2, 0], numpy.int32)


@pytest.fixture
def chain(tiny_yolo):
    return YOLOv3TrainChain(tiny_yolo(YOLOv3))


def _outputs(chain, seed=0):
    x = numpy.random.RandomState(seed).uniform(0, 1, (2, 3, 64, 64)).astype(numpy.float32)
    return chain.model(x)


def test_each_box_is_assigned_to_its_best_anchor_in_its_cell(chain):
    locs = numpy.zeros((1, (4 + 16 + 64) * 3, 4), numpy.float32)
    gt_locs, weights, gt_objs, gt_confs = chain.targets(locs, [BBOX], [LABEL])
    tall = 2 * 2 * 3 + (1 * 4 + 2) * 3 + 0
    small = 2 * 2 * 3 + 4 * 4 * 3 + (5 * 8 + 1) * 3 + 0
    assert numpy.nonzero(gt_objs[0] == 1)[0].tolist() == [tall, small]
    numpy.testing.assert_allclose(gt_locs[0, tall], [25 / 16 - 1, 40 / 16 - 2, 0, 0],
                                  atol=1e-6)
    numpy.testing.assert_allclose(gt_locs[0, small], [44 / 8 - 5, 15 / 8 - 1, numpy.log(12 / 13),
                                                      0], atol=1e-6)
    numpy.testing.assert_allclose(weights[0, [tall, small]],
                                  [2 - 61 * 30 / 64 ** 2, 2 - 12 * 10 / 64 ** 2])
    assert weights[0].sum() == weights[0, [tall, small]].sum()
    assert gt_confs[0, tall].tolist() == [0, 0, 1] and gt_confs[0, small].tolist() == [1, 0, 0]
    assert (gt_confs[0, gt_objs[0] != 1] == -1).all()


def test_boxes_overlapping_the_ground_truth_are_left_out(chain):
    locs = numpy.zeros((1, (4 + 16 + 64) * 3, 4), numpy.float32)
    decoded = chain.model.decode_bbox(locs[0])
    bbox = decoded[[100]] + numpy.float32(0.5)  # nearly the 100th default box
    gt_locs, weights, gt_objs, gt_confs = chain.targets(locs, [bbox], [numpy.array([1])])
    assert (gt_objs[0] == 1).sum() == 1
    overlap = bbox_iou(decoded, bbox)[:, 0] > 0.7
    assert overlap[100]
    assert ((gt_objs[0] == -1) == (overlap & (gt_objs[0] != 1))).all()


def test_images_without_boxes_count_their_objectness_only(chain):
    locs, objs, confs = _outputs(chain)
    empty = numpy.zeros((0, 4), numpy.float32)
    targets = chain.targets(locs.array, [empty, empty], [numpy.zeros(0, numpy.int32)] * 2)
    loss = chain.loss(locs, objs, confs, *targets)
    expected = F.sum(F.softplus(objs)).array / 2
    numpy.testing.assert_allclose(loss.array, expected, rtol=1e-5)


def test_the_loss_has_the_gradients_of_its_outputs(chain):
    locs, objs, confs = _outputs(chain)
    targets = chain.targets(locs.array, [BBOX, BBOX[:1]], [LABEL, LABEL[:1]])
    rng = numpy.random.RandomState(1)
    inputs = tuple(rng.standard_normal(v.shape) for v in (locs, objs, confs))

    def loss(locs, objs, confs):
        return chain.loss(locs, objs, confs, *targets)

    check_backward(loss, inputs, None, dtype=numpy.float64, atol=1e-4, rtol=1e-4)


def test_the_sizes_of_the_batch_are_checked(chain):
    locs = numpy.zeros((2, (4 + 16 + 64) * 3, 4), numpy.float32)
    with pytest.raises(ValueError, match=r'one entry per image \(2\), but got 1 and 1'):
        chain.targets(locs, [BBOX], [LABEL])


def test_a_few_steps_lower_the_loss(chain):
    x = numpy.random.RandomState(0).uniform(0, 1, (2, 3, 64, 64)).astype(numpy.float32)
    optimizer = MomentumSGD(lr=1e-3)
    optimizer.setup(chain)
    losses = []
    for _ in range(4):
        chain.cleargrads()
        loss = chain(x, [BBOX, BBOX[:1]], [LABEL, LABEL[:1]])
        loss.backward()
        optimizer.update()
        losses.append(float(loss.array))
    assert numpy.isfinite(losses).all() and losses[-1] < losses[0]


def test_a_batch_of_another_side_gets_the_targets_of_its_maps(chain):
    # Multi-scale training: at 96 px the maps are 3x3, 6x6 and 12x12; the tall box, centred at
    # (25, 40), falls in cell (1, 2) of the 6x6 map, as at 64 px in the 4x4 one.
    model = chain.model
    assert model.grids(96) == (3, 6, 12) and model.grids() == (2, 4, 8)
    locs = numpy.zeros((1, (9 + 36 + 144) * 3, 4), numpy.float32)
    gt_locs, weights, gt_objs, _ = chain.targets(locs, [BBOX[:1]], [LABEL[:1]], insize=96)
    tall = 3 * 3 * 3 + (1 * 6 + 2) * 3 + 0
    assert numpy.nonzero(gt_objs[0] == 1)[0].tolist() == [tall]
    numpy.testing.assert_allclose(gt_locs[0, tall], [25 / 16 - 1, 40 / 16 - 2, 0, 0],
                                  atol=1e-6)
    numpy.testing.assert_allclose(weights[0, tall], 2 - 61 * 30 / 96 ** 2)
    default_bbox, step = model.default_bbox(96)
    numpy.testing.assert_array_equal(default_bbox[tall], [1, 2, 61, 30])
    assert step[tall] == 16
    # Zero offsets: the anchor centred in its cell.
    numpy.testing.assert_allclose(model.decode_bbox(locs[0], 96)[tall],
                                  [24 - 30.5, 40 - 15, 24 + 30.5, 40 + 15])


def test_the_model_side_is_the_default(chain):
    model = chain.model
    default_bbox, step = model.default_bbox()
    numpy.testing.assert_array_equal(default_bbox, model.default_bbox(64)[0])
    locs = numpy.random.RandomState(2).uniform(-1, 1, (len(step), 4)).astype(numpy.float32)
    numpy.testing.assert_array_equal(model.decode_bbox(locs), model.decode_bbox(locs, 64))


def test_multi_scale_batches_train(chain):
    optimizer = MomentumSGD(lr=1e-3)
    optimizer.setup(chain)
    for side in (64, 96, 32):
        x = numpy.random.RandomState(side).uniform(0, 1, (2, 3, side, side)).astype(
            numpy.float32)
        chain.cleargrads()
        loss = chain(x, [BBOX * side / 64, BBOX[:1] * side / 64], [LABEL, LABEL[:1]])
        loss.backward()
        optimizer.update()
        assert numpy.isfinite(float(loss.array))


@pytest.mark.parametrize('shape', [(2, 3, 64, 96), (2, 3, 48, 48), (3, 64, 64)])
def test_images_must_be_square_of_a_side_multiple_of_32(chain, shape):
    x = numpy.zeros(shape, numpy.float32)
    with pytest.raises(ValueError, match=r'imgs must be \(B, 3, S, S\) with S a multiple of '
                                         r'32, but got the shape'):
        chain(x, [BBOX] * 2, [LABEL] * 2)

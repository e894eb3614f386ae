"""YOLOv3TrainChain on a tiny YOLOv3 (width 2, 64x64): the assignment of the ground truth, the
boxes left out of the objectness loss, the gradients of the loss and a few steps of training."""

from __future__ import annotations

import numpy
import pytest

import framework
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


def _sigmoid_cross_entropy(x, t):
    """Elementwise, in float64; 0 where ``t`` is -1."""
    x = x.astype(numpy.float64)
    return numpy.where(t == -1, 0, numpy.logaddexp(0, x) - x * t)


def test_the_loss_and_each_reported_term_by_hand(chain):
    rng = numpy.random.RandomState(3)
    n_box = (4 + 16 + 64) * 3
    locs = rng.standard_normal((2, n_box, 4)).astype(numpy.float32)
    objs = rng.standard_normal((2, n_box)).astype(numpy.float32)
    confs = rng.standard_normal((2, n_box, 3)).astype(numpy.float32)
    targets = chain.targets(locs, [BBOX, BBOX[:1]], [LABEL, LABEL[:1]])
    gt_locs, weights, gt_objs, gt_confs = targets
    weight = weights[:, :, None].astype(numpy.float64)
    loc = (_sigmoid_cross_entropy(locs[..., :2], gt_locs[..., :2]) * weight).sum() + (
        abs(locs[..., 2:].astype(numpy.float64) - gt_locs[..., 2:]) * weight).sum()
    expected = {'loc_loss': loc / 2,
                'obj_loss': _sigmoid_cross_entropy(objs, gt_objs).sum() / 2,
                'conf_loss': _sigmoid_cross_entropy(confs, gt_confs).sum() / 2}
    expected['loss'] = sum(expected.values())
    assert min(expected.values()) > 0.1
    reporter, observation = framework.Reporter(), {}
    reporter.add_observer('main', chain)
    with reporter.scope(observation):
        loss = chain.loss(framework.Variable(locs), framework.Variable(objs),
                          framework.Variable(confs), *targets)
    assert {key: float(value.array) for key, value in observation.items()} == pytest.approx(
        {f'main/{key}': value for key, value in expected.items()}, rel=1e-5)
    assert loss.dtype == numpy.float32 and float(loss.array) == pytest.approx(expected['loss'],
                                                                              rel=1e-5)


@pytest.mark.parametrize('n_bboxes, n_labels', [(2, 1), (1, 2)])
def test_either_list_of_the_wrong_length_is_refused(chain, n_bboxes, n_labels):
    locs = numpy.zeros((2, (4 + 16 + 64) * 3, 4), numpy.float32)
    with pytest.raises(ValueError) as error:
        chain.targets(locs, [BBOX] * n_bboxes, [LABEL] * n_labels)
    assert str(error.value) == ('YOLOv3TrainChain: bboxes and labels must hold one entry per '
                                f'image (2), but got {n_bboxes} and {n_labels}')
    with pytest.raises(ValueError) as error:
        chain.targets(locs[:, :10], [BBOX] * 2, [LABEL] * 2)
    assert str(error.value) == ('YOLOv3TrainChain: locs has 10 boxes, but inputs of side 64 '
                                'have 252')


def test_targets_are_of_float32_boxes_whatever_their_dtype_and_images_without_boxes(chain):
    locs = numpy.zeros((3, (4 + 16 + 64) * 3, 4), numpy.float32)
    bbox = BBOX.astype(numpy.float64) + [0.1, 0.3, 0.7, 0.9]  # not float32 values
    empty = numpy.zeros((0, 4))
    targets = chain.targets(locs, [empty, bbox, bbox.astype(numpy.float32)],
                            [numpy.zeros(0, int), LABEL, LABEL])
    assert [t.dtype for t in targets] == [numpy.float32, numpy.float32, numpy.int32,
                                          numpy.int32]
    for t in targets:
        numpy.testing.assert_array_equal(t[1], t[2])    # as float32, after an empty image
    assert (targets[2][1] == 1).sum() == 2 and not targets[1][0].any()


def test_a_box_overlapping_the_ground_truth_exactly_at_the_threshold_still_counts(chain):
    # Threshold: one of the IoUs of the default boxes (zero offsets) with the box; the boxes
    # above it and not assigned are left out (-1), the ones at it are not.
    locs = numpy.zeros((1, (4 + 16 + 64) * 3, 4), numpy.float32)
    iou = bbox_iou(chain.model.decode_bbox(locs[0]), BBOX[:1])[:, 0]
    assert chain.ignore_thresh == 0.7                 # Darknet's, by default
    chain.ignore_thresh = float(numpy.unique(iou[iou > 0])[-3])
    gt_objs = chain.targets(locs, [BBOX[:1]], [LABEL[:1]])[2][0]
    assigned = gt_objs == 1
    assert assigned.sum() == 1 and (iou[~assigned] > chain.ignore_thresh).sum() >= 1
    numpy.testing.assert_array_equal(gt_objs[~assigned],
                                     numpy.where(iou[~assigned] > chain.ignore_thresh, -1, 0))
    assert (iou[~assigned] == chain.ignore_thresh).any()


def test_boxes_in_the_first_and_last_cells_and_beyond_the_edges(chain):
    # The 8x8 map (step 8) starts at box 60 and has three anchors per cell: (13, 10),
    # (30, 16), (23, 33). Centres in cell (0, 0), in cell (7, 7), exactly on the bottom-right
    # corner (the last cell) and above the image (the first row).
    bbox = numpy.float32([[4 - 6.5, 4 - 5, 4 + 6.5, 4 + 5],          # (13, 10) at (4, 4)
                          [60 - 15, 60 - 8, 60 + 15, 60 + 8],        # (30, 16) at (60, 60)
                          [64 - 11.5, 64 - 16.5, 64 + 11.5, 64 + 16.5],  # (23, 33) at (64, 64)
                          [-2 - 6.5, 20 - 5, -2 + 6.5, 20 + 5]])     # (13, 10) at (-2, 20)
    locs = numpy.zeros((1, (4 + 16 + 64) * 3, 4), numpy.float32)
    gt_locs, _, gt_objs, gt_confs = chain.targets(locs, [bbox], [numpy.int32([0, 1, 2, 0])])
    index = [60 + 0, 60 + (7 * 8 + 7) * 3 + 1, 60 + (7 * 8 + 7) * 3 + 2, 60 + 2 * 3 + 0]
    assert numpy.flatnonzero(gt_objs[0] == 1).tolist() == sorted(index)
    numpy.testing.assert_allclose(gt_locs[0, index, :2],
                                  [[0.5, 0.5], [0.5, 0.5], [1, 1], [-0.25, 0.5]])
    assert gt_confs[0, index].argmax(axis=1).tolist() == [0, 1, 2, 0]

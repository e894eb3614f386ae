"""segm_to_mask and mask_to_segm: cases computed by hand, the round trip of a box's own mask,
the threshold at 0.5, boxes at and over the image's edges, and empty inputs."""

from __future__ import annotations

import numpy
import pytest

from vision.models.instance.mask_rcnn import mask_to_segm, segm_to_mask


def _box(*coords):
    return numpy.array([coords], numpy.float32)


def test_a_grid_of_two_on_a_box_of_two_is_the_mask_itself():
    # widened by (2 + 2) / 2 to [-1, -1, 3, 3]: a 4x4 grid resized to 4x4 pixels
    segm = numpy.array([[[0.9, 0.2], [0.51, 0.5]]], numpy.float32)
    mask = segm_to_mask(segm, _box(0, 0, 2, 2), (2, 2))
    assert mask.dtype == bool and mask.shape == (1, 2, 2)
    numpy.testing.assert_array_equal(mask[0], [[True, False], [True, False]])
    image_mask = numpy.array([[[True, False, True], [False, True, True]]])
    numpy.testing.assert_array_equal(mask_to_segm(image_mask, _box(0, 1, 2, 3), 2),
                                     [[[0, 1], [1, 1]]])


def test_the_edge_pixels_sample_the_padding():
    # a 56x56 box, grid of 28: widened to 60x60; the box's first pixel samples the padding
    # (0) and the first cell at 1/4 and 3/4, the second pixel the first two cells
    expected = numpy.zeros((100, 100), bool)
    segm = numpy.full((1, 28, 28), 0.6, numpy.float32)
    expected[11:65, 21:75] = True  # 0.6 * 0.75 <= 0.5 on the box's edge
    numpy.testing.assert_array_equal(segm_to_mask(segm, _box(10, 20, 66, 76), (100, 100))[0],
                                     expected)
    segm[:] = 0.7
    expected[10:66, 20:76] = True  # 0.7 * 0.75 > 0.5, but 0.7 * 0.75 ** 2 <= 0.5 at corners
    expected[[10, 10, 65, 65], [20, 75, 20, 75]] = False
    numpy.testing.assert_array_equal(segm_to_mask(segm, _box(10, 20, 66, 76), (100, 100))[0],
                                     expected)


def test_the_threshold_is_strictly_above_one_half():
    box = _box(0, 0, 2, 2)
    assert not segm_to_mask(numpy.full((1, 2, 2), 0.5, numpy.float32), box, (2, 2)).any()
    assert segm_to_mask(numpy.full((1, 2, 2), 0.5001, numpy.float32), box, (2, 2)).all()


def test_a_boxs_own_mask_goes_round_trip():
    mask = numpy.zeros((1, 100, 120), bool)
    mask[0, 10:66, 20:76] = True
    segm = mask_to_segm(mask, _box(10, 20, 66, 76), 28)
    assert segm.dtype == numpy.float32 and segm.shape == (1, 28, 28)
    numpy.testing.assert_array_equal(segm, 1)
    numpy.testing.assert_array_equal(segm_to_mask(segm, _box(10, 20, 66, 76), (100, 120)),
                                     mask)


def test_a_cell_is_one_only_where_every_pixel_it_reads_is_in_the_mask():
    mask = numpy.zeros((1, 100, 120), bool)
    mask[0, 10:66, 20:76] = True
    mask[0, 30, 40] = False  # pixel 22, 22 of the widened box, read by cell 11 (of 30)
    segm = mask_to_segm(mask, _box(10, 20, 66, 76), 28)
    assert segm.sum() == 28 * 28 - 1 and segm[0, 10, 10] == 0


@pytest.mark.parametrize('shift', [(20, 20), (0, 35), (-25, 3)])
def test_masks_are_cut_at_the_image_edges(shift):
    rng = numpy.random.RandomState(0)
    segm = rng.uniform(size=(2, 14, 14)).astype(numpy.float32)
    bbox = numpy.array([[-10, -12, 26, 40], [5, 18, 45, 47]], numpy.float32)
    dy, dx = shift
    whole = segm_to_mask(segm, bbox + numpy.float32([dy + 30, dx + 40] * 2), (100, 110))
    cut = segm_to_mask(segm, bbox + numpy.float32([dy, dx] * 2), (30, 30))
    numpy.testing.assert_array_equal(cut, whole[:, 30:60, 40:70])
    assert cut.any()


@pytest.mark.parametrize('shift', [(20, 20), (0, 35), (-25, 3)])
def test_boxes_over_the_edges_read_zeros_outside_the_image(shift):
    rng = numpy.random.RandomState(1)
    mask = rng.uniform(size=(2, 30, 30)) < 0.9
    bbox = numpy.array([[-10, -12, 26, 40], [5, 18, 45, 47]], numpy.float32)
    dy, dx = shift
    padded = numpy.zeros((2, 100, 110), bool)
    padded[:, 30:60, 40:70] = mask
    whole = mask_to_segm(padded, bbox + numpy.float32([dy + 30, dx + 40] * 2), 14)
    cut = mask_to_segm(mask, bbox + numpy.float32([dy, dx] * 2), 14)
    numpy.testing.assert_array_equal(cut, whole)


def test_boxes_outside_the_image_or_without_size_give_nothing():
    bbox = numpy.array([[40, 40, 60, 60], [-30, 5, -10, 9], [5, 5, 5.2, 20]], numpy.float32)
    assert not segm_to_mask(numpy.ones((3, 4, 4), numpy.float32), bbox, (30, 30)).any()
    segm = mask_to_segm(numpy.ones((3, 30, 30), bool), bbox, 4)
    numpy.testing.assert_array_equal(segm, 0)


def test_index_picks_the_mask_of_each_box():
    mask = numpy.zeros((2, 20, 20), bool)
    mask[1, 2:10, 2:10] = True
    bbox = numpy.array([[2, 2, 10, 10]] * 3, numpy.float32)
    segm = mask_to_segm(mask, bbox, 4, numpy.array([1, 0, 1], numpy.int32))
    numpy.testing.assert_array_equal(segm[:, 1, 1], [1, 0, 1])


def test_empty_inputs_give_empty_outputs():
    empty = numpy.zeros((0, 4), numpy.float32)
    mask = segm_to_mask(numpy.zeros((0, 28, 28), numpy.float32), empty, (5, 7))
    assert mask.dtype == bool and mask.shape == (0, 5, 7)
    segm = mask_to_segm(numpy.zeros((0, 5, 7), bool), empty, 28)
    assert segm.dtype == numpy.float32 and segm.shape == (0, 28, 28)
    segm = mask_to_segm(numpy.zeros((2, 5, 7), bool), empty, 28, numpy.zeros(0, numpy.int32))
    assert segm.shape == (0, 28, 28)
    assert segm_to_mask(numpy.ones((1, 2, 2), numpy.float32), _box(0, 0, 2, 2),
                        (0, 0)).shape == (1, 0, 0)


@pytest.mark.parametrize('call, message', [
    (lambda: segm_to_mask(numpy.zeros((1, 2, 3)), _box(0, 0, 1, 1), (4, 4)),
     r'segm must be \(R, M, M\) with M > 0, but got shape \(1, 2, 3\)'),
    (lambda: segm_to_mask(numpy.zeros((2, 2, 2)), _box(0, 0, 1, 1), (4, 4)),
     'one entry per box, but got 2 and 1'),
    (lambda: segm_to_mask(numpy.zeros((1, 2, 2)), numpy.zeros((1, 3)), (4, 4)),
     r'bbox must be \(R, 4\), but got shape \(1, 3\)'),
    (lambda: segm_to_mask(numpy.zeros((1, 2, 2)), _box(0, 0, 1, 1), (4, -1)),
     r'size must be \(H, W\), two non-negative ints, but got \(4, -1\)'),
    (lambda: mask_to_segm(numpy.zeros((4, 4), bool), _box(0, 0, 1, 1), 2),
     r'mask must be \(N, H, W\), but got shape \(4, 4\)'),
    (lambda: mask_to_segm(numpy.zeros((1, 4, 4), bool), _box(0, 0, 1, 1), 0),
     'segm_size must be a positive int, but got 0'),
    (lambda: mask_to_segm(numpy.zeros((2, 4, 4), bool), _box(0, 0, 1, 1), 2),
     'without index, mask and bbox must have one entry per box, but got 2 and 1'),
    (lambda: mask_to_segm(numpy.zeros((2, 4, 4), bool), _box(0, 0, 1, 1), 2, [2]),
     r'index must be \(R,\) = \(1,\) ints in \[0, 2\)'),
])
def test_errors_name_the_argument_and_the_value(call, message):
    with pytest.raises(ValueError, match=message):
        call()

"""The level of a region (Lin et al.'s equation 1, as ChainerCV computes it) and the regions
of each level with the order that undoes the split."""

from __future__ import annotations

import numpy

from vision.models.detection.fpn import assign_levels, split_by_level


def _squares(sides):
    sides = numpy.asarray(sides, numpy.float32)
    return numpy.stack((0 * sides, 0 * sides, sides, sides), axis=1)


def test_levels_follow_the_log_of_the_side():
    # side 224 is level 2; each halving one level down, each doubling one up; clipped to
    # [0, n_level - 2] = [0, 3]
    rois = _squares([224, 223.9, 112, 448, 447, 896, 5000, 56, 55, 1])
    numpy.testing.assert_array_equal(assign_levels(rois, 5), [2, 1, 1, 3, 2, 3, 3, 0, 0, 0])
    assert assign_levels(rois, 5).dtype == numpy.int32
    # a region of area h * w counts as the square of side sqrt(h * w)
    numpy.testing.assert_array_equal(assign_levels(numpy.array([[0, 0, 112, 448]], 'f'), 5), [2])
    numpy.testing.assert_array_equal(assign_levels(_squares([224]), 5, canonical_level=3), [3])


def test_split_by_level_and_its_order():
    rois = _squares([10, 300, 20, 500, 150])
    roi_indices = numpy.array([0, 1, 2, 3, 4], numpy.int32)
    level = assign_levels(rois, 5)
    split, indices, order = split_by_level(rois, roi_indices, level, 5)
    assert [len(r) for r in split] == [2, 1, 1, 1, 0]  # levels 0, 2, 0, 3, 1
    numpy.testing.assert_array_equal(numpy.concatenate(indices), [0, 2, 4, 1, 3])
    numpy.testing.assert_array_equal(numpy.concatenate(split)[order], rois)

"""COCO run-length encodings and polygons decoded without pycocotools, checked against it."""

from __future__ import annotations

import numpy
import pytest

from vision.datasets.coco._segmentation import (
    SegmentationError,
    polygons_to_mask,
    rle_counts_from_string,
    rle_to_mask,
    segmentation_to_mask,
)


def _masks():
    rng = numpy.random.default_rng(0)
    for k in range(60):
        height, width = (int(v) for v in rng.integers(1, 50, 2))
        yield (rng.random((height, width)) < rng.random()) if k % 4 else \
            numpy.full((height, width), bool(k % 8))
    big = numpy.zeros((700, 900), bool)  # long runs: counts of several characters
    big[100:600, 250:800] = True
    big[300:310, :] = True
    yield big


def test_against_pycocotools():
    coco_mask = pytest.importorskip('pycocotools.mask')
    for mask in _masks():
        rle = coco_mask.encode(numpy.asfortranarray(mask.astype(numpy.uint8)))
        counts = rle['counts'].decode('ascii')
        numpy.testing.assert_array_equal(rle_to_mask(counts, mask.shape), mask)
        h, w = mask.shape
        numpy.testing.assert_array_equal(
            segmentation_to_mask({'size': [h, w], 'counts': counts}, (h, w)), mask)


def test_uncompressed_round_trip():
    for mask in _masks():
        flat = mask.T.ravel()
        changes = numpy.flatnonzero(flat[1:] != flat[:-1]) + 1
        bounds = numpy.concatenate(([0], changes, [flat.size]))
        counts = numpy.diff(bounds).tolist()
        if flat[0]:
            counts = [0] + counts
        numpy.testing.assert_array_equal(rle_to_mask(counts, mask.shape), mask)


def test_string_decoding_by_hand():
    # 5 bits a character, offset 48; 'more' is bit 32; the sign is bit 16 of the last one.
    assert rle_counts_from_string('').tolist() == []
    assert rle_counts_from_string('1').tolist() == [1]
    # 560 = 16 + 17 * 32: the chunk 17 has bit 16 set, so a zero chunk ends the number.
    assert rle_counts_from_string('`a0').tolist() == [560]
    assert rle_counts_from_string('PA').tolist() == [17 * 32 - 1024]
    # Counts after the third are stored as differences from the count two places before.
    assert rle_counts_from_string('3245').tolist() == [3, 2, 4, 2 + 5]
    assert rle_counts_from_string('362O').tolist() == [3, 6, 2, 6 - 1]


def test_polygons_as_chainercv_draws_them():
    from PIL import Image, ImageDraw

    polygons = [[1.5, 1.2, 8.7, 2.1, 5.2, 9.9], [10, 10, 14, 10, 14, 13, 10, 13]]
    reference = Image.new('L', (16, 12))
    for polygon in polygons:
        xy = [tuple(p) for p in numpy.array(polygon).reshape(-1, 2)]
        ImageDraw.Draw(reference).polygon(xy=xy, outline=1, fill=1)
    numpy.testing.assert_array_equal(polygons_to_mask(polygons, (12, 16)),
                                     numpy.asarray(reference).astype(bool))
    mask = polygons_to_mask([[2, 1, 2, 4]], (6, 5))  # two points: a line
    assert mask.sum() == 4 and mask[1:5, 2].all()


def test_errors():
    with pytest.raises(SegmentationError, match='counts must be a string or a list of '
                                                'integers'):
        rle_to_mask([1.5, 2], (1, 3))
    with pytest.raises(SegmentationError, match='counts must be an ASCII string'):
        rle_counts_from_string('é')

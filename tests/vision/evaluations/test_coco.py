"""The parts of vision.evaluations._coco that the COCO evaluations share, tested directly
where the evaluations cannot show them: the columns' dtypes and the pairs' chunks."""

from __future__ import annotations

import numpy

from vision.evaluations._coco import IOU_THRESHS, ObjectColumns, similar_pairs


def test_columns_have_their_dtypes_without_any_image():
    # No image at all still gives int64 image numbers (not NumPy's float64 for an empty
    # list), and each column its dtype and trailing shape.
    columns = ObjectColumns('label', 'score', 'crowd', box=(4,), visible=(17,)).arrays()
    assert set(columns) == {'image', 'label', 'score', 'crowd', 'box', 'visible'}
    expected = {'image': (numpy.int64, (0,)), 'label': (numpy.int64, (0,)),
                'score': (numpy.float64, (0,)), 'crowd': (numpy.bool_, (0,)),
                'box': (numpy.float64, (0, 4)), 'visible': (numpy.bool_, (0, 17))}
    for key, (dtype, shape) in expected.items():
        assert columns[key].dtype == dtype and columns[key].shape == shape, key


def test_columns_concatenate_the_images_in_their_dtypes():
    columns = ObjectColumns('label', 'score', box=(4,))
    columns.add(3, label=numpy.array([1, 2], numpy.int32), score=numpy.array([.5, .25]),
                box=numpy.ones((2, 4), numpy.float32))
    columns.add(5, label=numpy.zeros(0, numpy.int32), score=numpy.zeros(0),
                box=numpy.zeros((0, 4)))
    # Labels are carried as int64 exactly (2^53 + 1 is not a float64).
    columns.add(7, label=numpy.array([2 ** 53 + 1]), score=numpy.array([1.]),
                box=numpy.zeros((1, 4)))
    arrays = columns.arrays()
    numpy.testing.assert_array_equal(arrays['image'], [3, 3, 7])
    assert arrays['image'].dtype == numpy.int64
    assert arrays['label'].tolist() == [1, 2, 2 ** 53 + 1]
    assert arrays['label'].dtype == numpy.int64
    assert arrays['box'].dtype == numpy.float64 and arrays['box'].shape == (3, 4)


def _one_object_per_detection(n):
    """``n`` detections, each in its own image with one object of its label."""
    det = {'image': numpy.arange(n), 'label': numpy.zeros(n, numpy.int64)}
    gt = {'image': numpy.arange(n), 'label': numpy.zeros(n, numpy.int64)}
    return det, gt


def test_similar_pairs_passes_chunks_of_pairs():
    # With one candidate per detection and chunk 3, the similarity sees 3, 3, 3, then 1
    # pairs: never more than the chunk, which bounds memory, nor one call per detection.
    det, gt = _one_object_per_detection(10)
    sizes = []

    def similarity(d, g):
        sizes.append(len(d))
        numpy.testing.assert_array_equal(d, g)
        return numpy.ones(len(d))

    pairs = similar_pairs(det, gt, similarity, chunk=3)
    assert [size for size in sizes if size] == [3, 3, 3, 1]
    numpy.testing.assert_array_equal(pairs[0], numpy.arange(10))
    numpy.testing.assert_array_equal(pairs[1], numpy.arange(10))
    numpy.testing.assert_array_equal(pairs[2], numpy.ones(10))


def test_similar_pairs_keeps_the_lowest_threshold_itself():
    # A similarity exactly the lowest threshold (0.5) is kept, just below it is dropped.
    det, gt = _one_object_per_detection(3)
    values = numpy.array([IOU_THRESHS[0], numpy.nextafter(IOU_THRESHS[0], 0), 1.])
    det_index, gt_index, value = similar_pairs(det, gt, lambda d, g: values[d])
    numpy.testing.assert_array_equal(det_index, [0, 2])
    numpy.testing.assert_array_equal(gt_index, [0, 2])
    numpy.testing.assert_array_equal(value, [0.5, 1.])
    assert det_index.dtype == gt_index.dtype == numpy.int64 and value.dtype == numpy.float64

import numpy

from vision.models.detection.mtcnn.bbox_regression import cell_bbox, regress_bbox, square_bbox


def test_cell_bbox_is_the_cells_window_in_the_image():
    bbox = cell_bbox(numpy.array([0, 3]), numpy.array([5, 0]), 0.5)
    assert bbox.dtype == numpy.float32
    # floor((2 * y + 1) / s), floor((2 * y + 12) / s)
    numpy.testing.assert_array_equal(bbox, [[2, 22, 24, 44], [14, 2, 36, 24]])


def test_cell_bbox_divides_in_float32():
    scale = 0.6 * 0.709 ** 3
    y = numpy.arange(200)
    expected = numpy.floor((2 * y.astype(numpy.float32) + 1) / numpy.float32(scale))
    numpy.testing.assert_array_equal(cell_bbox(y, y, scale)[:, 0], expected)


def test_regress_bbox_moves_edges_by_the_size():
    bbox = numpy.array([[10, 20, 30, 60]], dtype=numpy.float32)
    offset = numpy.array([[0.1, -0.5, 0.25, 1]], dtype=numpy.float32)
    numpy.testing.assert_allclose(regress_bbox(bbox, offset, inclusive=False),
                                  [[12, 0, 35, 100]])
    numpy.testing.assert_allclose(regress_bbox(bbox, offset, inclusive=True),
                                  [[12.1, -0.5, 35.25, 101]], rtol=1e-6)
    assert regress_bbox(bbox, offset, inclusive=True).dtype == numpy.float32


def test_square_bbox_keeps_the_centre_and_takes_the_longer_side():
    bbox = numpy.array([[10, 20, 30, 60], [0, 0, 9, 3], [5, 5, 5, 5]], dtype=numpy.float32)
    square = square_bbox(bbox)
    assert square.dtype == numpy.float32
    numpy.testing.assert_array_equal(square, [[0, 20, 40, 60], [0, -3, 9, 6], [5, 5, 5, 5]])

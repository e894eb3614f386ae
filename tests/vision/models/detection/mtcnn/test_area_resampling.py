import numpy
import pytest

from vision.models.detection.mtcnn.area_resampling import (
    area_windows,
    normalize,
    summed_area_table,
    window_means,
)


def area_resize_reference(img, out_h, out_w):
    """PyTorch's ``interpolate(mode='area')`` (adaptive average pooling), one window at a
    time."""
    n_channel, height, width = img.shape
    out = numpy.empty((n_channel, out_h, out_w))
    for i in range(out_h):
        y0, y1 = (i * height) // out_h, -(-((i + 1) * height) // out_h)
        for j in range(out_w):
            x0, x1 = (j * width) // out_w, -(-((j + 1) * width) // out_w)
            out[:, i, j] = img[:, y0:y1, x0:x1].astype(numpy.float64).mean(axis=(1, 2))
    return out


def test_summed_area_table_sums_the_top_left_rectangles():
    img = numpy.random.RandomState(0).randint(0, 256, (2, 5, 7)).astype(numpy.float32)
    table = summed_area_table(img)
    assert table.shape == (2, 6, 8) and table.dtype == numpy.float64
    for y in range(6):
        for x in range(8):
            numpy.testing.assert_array_equal(table[:, y, x], img[:, :y, :x].sum(axis=(1, 2)))


@pytest.mark.parametrize('workers', [1, 2, 3])
def test_summed_area_table_in_bands_is_exact(monkeypatch, workers):
    # The rows are cumulated in one band per worker; integer images sum exactly whatever
    # the split.
    import framework.engine
    engine = framework.engine.ThreadedEngine(num_cpu_workers=workers)
    monkeypatch.setattr(framework.engine, '_engine', engine)
    try:
        img = numpy.random.RandomState(3).randint(0, 256, (3, 41, 37)).astype(numpy.float32)
        table = summed_area_table(img)
    finally:
        engine.shutdown()
    expected = numpy.zeros((3, 42, 38))
    expected[:, 1:, 1:] = img.astype(numpy.float64).cumsum(axis=1).cumsum(axis=2)
    numpy.testing.assert_array_equal(table, expected)


@pytest.mark.parametrize('length, n_out', [(10, 3), (7, 7), (5, 12), (600, 361), (13, 1)])
def test_area_windows_are_adaptive_pooling_windows(length, n_out):
    begin, end = area_windows(numpy.array([4]), numpy.array([length]), n_out)
    i = numpy.arange(n_out)
    numpy.testing.assert_array_equal(begin[0], 4 + numpy.floor(i * length / n_out))
    numpy.testing.assert_array_equal(end[0], 4 + numpy.ceil((i + 1) * length / n_out))
    assert (end > begin).all()


@pytest.mark.parametrize('size, out_size', [
    ((17, 23), (7, 9)),     # downsampling, windows overlapping by one pixel
    ((12, 12), (12, 12)),   # identity
    ((5, 6), (11, 13)),     # upsampling
    ((40, 30), (40, 3)),    # one axis only
])
def test_window_means_resize_as_pytorch_area_interpolation(size, out_size):
    img = numpy.random.RandomState(1).randint(0, 256, (3,) + size).astype(numpy.float32)
    table = summed_area_table(img)
    zero = numpy.zeros(1, dtype=numpy.int64)
    rows = area_windows(zero, numpy.array([size[0]]), out_size[0])
    cols = area_windows(zero, numpy.array([size[1]]), out_size[1])
    out = window_means(table, rows, cols)
    assert out.shape == (1, 3) + out_size
    numpy.testing.assert_allclose(out[0], area_resize_reference(img, *out_size), rtol=1e-12)


def test_window_means_resize_crops_of_different_sizes_at_once():
    img = numpy.random.RandomState(2).uniform(0, 255, (3, 30, 40))
    table = summed_area_table(img)
    crops = [(0, 0, 30, 40), (3, 5, 4, 6), (10, 2, 29, 17), (7, 30, 9, 40)]
    start = numpy.array(crops)
    rows = area_windows(start[:, 0], start[:, 2] - start[:, 0], 6)
    cols = area_windows(start[:, 1], start[:, 3] - start[:, 1], 6)
    out = window_means(table, rows, cols)
    for r, (y0, x0, y1, x1) in enumerate(crops):
        numpy.testing.assert_allclose(out[r], area_resize_reference(img[:, y0:y1, x0:x1], 6, 6),
                                      rtol=1e-9)


def test_normalize_is_mtcnns():
    out = normalize(numpy.array([0.0, 127.5, 255.0]))
    assert out.dtype == numpy.float32
    numpy.testing.assert_array_equal(out, [-0.99609375, 0, 0.99609375])

import numpy
import pytest

from framework.config import no_backprop_mode
from vision.models.detection.mtcnn import PNet, image_pyramid
from vision.models.detection.mtcnn.area_resampling import (
    area_windows,
    normalize,
    summed_area_table,
    window_means,
)
from vision.models.detection.mtcnn.image_pyramid import (
    level_bands,
    level_size,
    pyramid_scales,
    scan_level,
)


def test_pyramid_scales_go_down_by_factor_to_12_pixels():
    scales = pyramid_scales(600, 512, 20, 0.709)
    numpy.testing.assert_allclose(scales, 0.6 * 0.709 ** numpy.arange(10))
    assert 512 * scales[-1] >= 12 > 512 * scales[-1] * 0.709
    assert level_size(600, 512, 0.6) == (361, 308)


@pytest.mark.parametrize('size', [(11, 400), (0, 0), (5, 5)])
def test_an_image_under_12_pixels_has_no_levels(size):
    assert pyramid_scales(*size, 12, 0.709) == []


@pytest.mark.parametrize('size', [(12, 12), (37, 29), (64, 51)])
def test_scan_level_in_bands_is_pnet_on_the_whole_level(monkeypatch, size):
    numpy.random.seed(0)
    pnet = PNet()
    img = numpy.random.RandomState(1).randint(0, 256, (3, 80, 70)).astype(numpy.float32)
    table = summed_area_table(img)
    zero = numpy.zeros(1, dtype=numpy.int64)
    level = normalize(window_means(table, area_windows(zero, numpy.array([80]), size[0]),
                                   area_windows(zero, numpy.array([70]), size[1])))
    with no_backprop_mode():
        offset, prob = pnet(level)
        monkeypatch.setattr(image_pyramid, '_BAND_PIXELS', 3 * size[1])
        y, x, score, found_offset = scan_level(pnet, table, size, 0.0)
    n_out = prob.shape[2] * prob.shape[3]
    assert prob.shape[2] == -(-(size[0] - 2) // 2) - 4
    assert len(y) == n_out
    # The bands' products may round differently from the whole level's.
    numpy.testing.assert_allclose(score, prob.array[0, 1, y, x], rtol=1e-5)
    numpy.testing.assert_allclose(found_offset, offset.array[0][[1, 0, 3, 2]][:, y, x].T,
                                  rtol=1e-4, atol=1e-6)
    assert sorted(zip(y.tolist(), x.tolist())) == [
        (i, j) for i in range(prob.shape[2]) for j in range(prob.shape[3])]


def test_scan_level_keeps_the_cells_at_or_above_the_threshold():
    numpy.random.seed(0)
    pnet = PNet()
    table = summed_area_table(
        numpy.random.RandomState(2).randint(0, 256, (3, 50, 50)).astype(numpy.float32))
    with no_backprop_mode():
        _, _, every_score, _ = scan_level(pnet, table, (50, 50), 0.0)
        thresh = float(numpy.median(every_score))
        _, _, score, _ = scan_level(pnet, table, (50, 50), thresh)
    assert len(score) == (every_score >= numpy.float32(thresh)).sum()
    assert (score >= numpy.float32(thresh)).all()


@pytest.mark.parametrize('size, band_pixels', [((12, 12), 1 << 18), ((361, 308), 1 << 18),
                                               ((649, 1153), 1 << 18), ((64, 51), 3 * 51)])
def test_level_bands_cover_the_output_rows_within_the_pixel_bound(monkeypatch, size,
                                                                   band_pixels):
    monkeypatch.setattr(image_pyramid, '_BAND_PIXELS', band_pixels)
    bands = level_bands(size)
    n_out = -(-(size[0] - 2) // 2) - 4
    assert bands[0][0] == 0 and bands[-1][1] == n_out
    assert all(last == first for (_, last), (first, _) in zip(bands[:-1], bands[1:]))
    for first, last in bands:
        assert last > first
        read = min(2 * last + 10, size[0]) - 2 * first
        assert read * size[1] <= max(band_pixels, 12 * size[1])

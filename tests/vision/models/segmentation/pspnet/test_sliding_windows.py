"""sliding_windows: ChainerCV's tiles of PSPNet, and at least one along a short side."""

from __future__ import annotations

import numpy
import pytest

from vision.models.segmentation.pspnet import sliding_windows


def test_a_cityscapes_image_is_cut_as_chainercv_cuts_it():
    windows = list(sliding_windows((1024, 2048), (713, 713), (476, 476)))
    # rows: ceil((1024 - 713) / 476) + 1 = 2 windows from -(713 + 476 - 1024) // 2 = -83;
    # columns: 4 windows from -(713 + 3 * 476 - 2048) // 2 = -47
    assert len(windows) == 8
    assert windows[0] == (slice(0, 630), slice(0, 666), slice(83, 713), slice(47, 713))
    assert windows[1][1] == slice(429, 1142) and windows[1][3] == slice(0, 713)
    assert windows[7] == (slice(393, 1024), slice(1381, 2048), slice(0, 631), slice(0, 667))


@pytest.mark.parametrize('size', [(100, 205), (40, 50), (10, 100), (32, 32), (33, 97)])
def test_windows_cover_the_image_and_fit_in_the_window(size):
    window, stride = (32, 32), (22, 22)
    counts = numpy.zeros(size, numpy.int32)
    for y_slice, x_slice, crop_y, crop_x in sliding_windows(size, window, stride):
        part = counts[y_slice, x_slice]
        assert part.size > 0 and numpy.zeros(window)[crop_y, crop_x].shape == part.shape
        part += 1
    assert counts.min() >= 1


def test_a_side_shorter_than_the_window_less_the_stride_still_gets_a_window():
    # ChainerCV makes ceil((10 - 32) / 22) + 1 = 0 rows of windows there.
    windows = list(sliding_windows((10, 100), (32, 32), (22, 22)))
    assert len(windows) == 5
    assert all(w[0] == slice(0, 10) and w[2] == slice(11, 21) for w in windows)

import numpy

from vision.models.detection.mtcnn.area_resampling import summed_area_table
from vision.models.detection.mtcnn.crops import crop_windows, resample_crops


def test_crop_windows_truncate_and_clip_to_the_image():
    bbox = numpy.array([
        [10.7, 20.2, 30.9, 40.5],     # inside: [trunc - 1, trunc)
        [-5.5, -0.9, 8.2, 9.9],       # over the top-left corner
        [90.0, 95.0, 130.0, 180.0],   # over the bottom-right corner
        [-20.0, 5.0, -3.0, 9.0],      # above the image
        [50.0, 121.0, 60.0, 130.0],   # right of the image
        [50.0, 120.0, 60.0, 130.0],   # its x begins at 119: the last column
        [0.5, 0.5, 0.9, 0.9],         # within the first pixel, truncated to nothing
    ], dtype=numpy.float32)
    window, valid = crop_windows(bbox, 100, 120)
    assert window.dtype == numpy.int64
    numpy.testing.assert_array_equal(window[:3], [[9, 19, 30, 40], [0, 0, 8, 9],
                                                  [89, 94, 100, 120]])
    numpy.testing.assert_array_equal(window[5], [49, 119, 60, 120])
    numpy.testing.assert_array_equal(valid, [True, True, True, False, False, True, False])


def test_resample_crops_resizes_the_windows():
    img = numpy.random.RandomState(0).randint(0, 256, (3, 20, 30)).astype(numpy.float32)
    window = numpy.array([[0, 0, 20, 30], [4, 6, 8, 10]])
    crops = resample_crops(summed_area_table(img), window, 4)
    assert crops.shape == (2, 3, 4, 4) and crops.dtype == numpy.float32
    # a 4x4 window is the pixels themselves
    numpy.testing.assert_allclose(crops[1], (img[:, 4:8, 6:10] - 127.5) * 0.0078125, atol=1e-6)
    top_left = img[:, :5, :8].mean(axis=(1, 2))
    numpy.testing.assert_allclose(crops[0, :, 0, 0], (top_left - 127.5) * 0.0078125,
                                  atol=1e-6)

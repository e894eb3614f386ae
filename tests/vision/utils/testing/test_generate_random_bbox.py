import numpy
import pytest

from vision.utils import assert_is_bbox, generate_random_bbox


@pytest.mark.parametrize('seed', range(5))
def test_generate_random_bbox(seed):
    numpy.random.seed(seed)
    n, img_size, min_length, max_length = 32, (128, 256), 16, 48
    bbox = generate_random_bbox(n, img_size, min_length, max_length)
    assert_is_bbox(bbox, img_size)
    assert bbox.shape == (n, 4)
    h = bbox[:, 2] - bbox[:, 0]
    w = bbox[:, 3] - bbox[:, 1]
    assert numpy.all((min_length <= h) & (h < max_length))
    assert numpy.all((min_length <= w) & (w < max_length))


def test_lengths_stay_in_bounds_after_rounding_to_float32():
    rng = numpy.random.default_rng(0)
    # Far from the origin, float32 steps are coarse: rounding would break the bounds.
    bbox = generate_random_bbox(20000, (1e6, 1e6), 0.9, 1.0, rng=rng)
    for length in (bbox[:, 2] - bbox[:, 0], bbox[:, 3] - bbox[:, 1]):
        assert numpy.all((length >= 0.9) & (length < 1.0))


def test_generator_makes_it_reproducible():
    first = generate_random_bbox(5, (50, 60), 3, 10, rng=numpy.random.default_rng(3))
    second = generate_random_bbox(5, (50, 60), 3, 10, rng=numpy.random.default_rng(3))
    numpy.testing.assert_equal(first, second)
    assert generate_random_bbox(0, (50, 60), 3, 10).shape == (0, 4)

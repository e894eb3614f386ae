import math
import random

import numpy
import pytest

from vision.transforms import random_sized_crop


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_random_sized_crop.py.
@pytest.mark.parametrize('H, W', [(256, 256), (129, 352), (352, 129), (35, 500)])
@pytest.mark.parametrize('seed', range(5))
def test_chainercv_random_sized_crop(H, W, seed):
    img = numpy.random.uniform(size=(3, H, W))
    scale_ratio_interval = (0.08, 1)
    aspect_ratio_interval = (3 / 4, 4 / 3)
    out, params = random_sized_crop(img, scale_ratio_interval, aspect_ratio_interval,
                                    return_param=True, rng=numpy.random.default_rng(seed))
    numpy.testing.assert_array_equal(out, img[:, params['y_slice'], params['x_slice']])

    _, H_crop, W_crop = out.shape
    scale_ratio = params['scale_ratio']
    aspect_ratio = params['aspect_ratio']
    area = scale_ratio * H * W
    assert H_crop == int(math.floor(numpy.sqrt(area * aspect_ratio)))
    assert W_crop == int(math.floor(numpy.sqrt(area / aspect_ratio)))
    assert aspect_ratio_interval[0] <= aspect_ratio <= aspect_ratio_interval[1]
    assert scale_ratio <= scale_ratio_interval[1]
    scale_ratio_max = min((scale_ratio_interval[1], H / (W * aspect_ratio),
                           (aspect_ratio * W) / H))
    assert min((scale_ratio_max, scale_ratio_interval[0])) <= scale_ratio


def test_python_random_by_default():
    img = numpy.zeros((1, 40, 60))
    random.seed(11)
    first = random_sized_crop(img, return_param=True)[1]
    random.seed(11)
    assert random_sized_crop(img, return_param=True)[1] == first


def test_reproducible_and_varied():
    img = numpy.zeros((1, 40, 60))
    params = [random_sized_crop(img, return_param=True, rng=numpy.random.default_rng(2))[1]
              for _ in range(2)]
    assert params[0] == params[1]
    rng = numpy.random.default_rng(3)
    sizes = {random_sized_crop(img, rng=rng).shape for _ in range(20)}
    assert len(sizes) > 10


def test_copy():
    img = numpy.zeros((1, 8, 8))
    assert not numpy.shares_memory(random_sized_crop(img, copy=True), img)

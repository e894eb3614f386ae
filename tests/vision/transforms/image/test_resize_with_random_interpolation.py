import numpy
from PIL import Image

from vision.transforms import resize, resize_with_random_interpolation


def test_resizes_with_each_of_the_five_filters():
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 20, 30)).astype(numpy.float32)
    rng = numpy.random.default_rng(0)
    seen = set()
    for _ in range(60):
        out, param = resize_with_random_interpolation(img, (11, 7), return_param=True, rng=rng)
        assert out.shape == (3, 11, 7) and out.dtype == numpy.float32
        numpy.testing.assert_array_equal(out, resize(img, (11, 7), param['interpolation']))
        seen.add(param['interpolation'])
    assert seen == {Image.BILINEAR, Image.BOX, Image.NEAREST, Image.BICUBIC, Image.LANCZOS}


def test_without_param():
    img = numpy.zeros((1, 4, 4), numpy.float32)
    assert resize_with_random_interpolation(img, (2, 2)).shape == (1, 2, 2)

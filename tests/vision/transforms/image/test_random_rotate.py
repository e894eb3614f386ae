import numpy
import pytest

from vision.transforms import random_rotate, rotate


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_random_rotate.py.
def test_chainercv_random_rotate():
    img = numpy.random.uniform(size=(3, 24, 24))
    out, param = random_rotate(img, return_param=True)
    expected = numpy.transpose(img, axes=(1, 2, 0))
    expected = numpy.rot90(expected, param['k'])
    expected = numpy.transpose(expected, axes=(2, 0, 1))
    numpy.testing.assert_array_equal(out, expected)


def test_quarter_turns_as_rotate():
    img = numpy.random.default_rng(0).uniform(size=(2, 5, 8)).astype(numpy.float32)
    rng = numpy.random.default_rng(1)
    seen = set()
    for _ in range(30):
        out, param = random_rotate(img, return_param=True, rng=rng)
        numpy.testing.assert_array_equal(out, rotate(img, 90 * param['k']))
        seen.add(param['k'])
    assert seen == {0, 1, 2, 3}


def test_reproducible():
    img = numpy.zeros((1, 3, 4))
    ks = [random_rotate(img, True, rng=numpy.random.default_rng(3))[1]['k'] for _ in range(2)]
    assert ks[0] == ks[1] == numpy.random.default_rng(3).integers(4)
    numpy.random.seed(3)
    k = random_rotate(img, True)[1]['k']
    numpy.random.seed(3)
    assert k == numpy.random.randint(4)


def test_bad_rng():
    with pytest.raises(TypeError, match='random_rotate: rng must be a numpy.random.Generator'):
        random_rotate(numpy.zeros((1, 3, 3)), rng=numpy.random)

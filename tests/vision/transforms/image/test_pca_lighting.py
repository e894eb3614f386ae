import numpy
import pytest

from vision.transforms import pca_lighting
from vision.transforms.image.pca_lighting import _IMAGENET_EIGEN_VALUE, _IMAGENET_EIGEN_VECTOR


# Ported from ChainerCV's tests/transforms_tests/image_tests/test_pca_lighting.py.
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_chainercv_pca_lighting(dtype):
    img = numpy.random.uniform(size=(3, 48, 32)).astype(dtype)
    out = pca_lighting(img, 0.1)
    assert out.shape == img.shape and out.dtype == img.dtype
    out = pca_lighting(img, 0)
    assert out.shape == img.shape and out.dtype == img.dtype
    numpy.testing.assert_array_equal(out, img)


def test_shift_along_the_principal_components():
    img = numpy.random.default_rng(0).uniform(0, 255, (3, 5, 6))
    out = pca_lighting(img, 25.5, rng=numpy.random.default_rng(7))
    alpha = numpy.random.default_rng(7).normal(0, 25.5, size=3)
    shift = _IMAGENET_EIGEN_VECTOR @ (_IMAGENET_EIGEN_VALUE * alpha)
    numpy.testing.assert_allclose(out - img, numpy.broadcast_to(shift[:, None, None],
                                                                img.shape), atol=1e-9)


def test_global_numpy_state_by_default():
    img = numpy.zeros((3, 2, 2))
    numpy.random.seed(3)
    out = pca_lighting(img, 1.0)
    numpy.random.seed(3)
    alpha = numpy.random.normal(0, 1.0, size=3)
    numpy.testing.assert_allclose(
        out[:, 0, 0], _IMAGENET_EIGEN_VECTOR.dot(_IMAGENET_EIGEN_VALUE * alpha))


def test_custom_components_and_channels():
    img = numpy.zeros((2, 3, 3), numpy.float32)
    out = pca_lighting(img, 1.0, eigen_value=numpy.array([1.0]),
                       eigen_vector=numpy.array([[1.0], [-1.0]]),
                       rng=numpy.random.default_rng(0))
    alpha = numpy.random.default_rng(0).normal(0, 1.0, size=1)[0]
    numpy.testing.assert_allclose(out[:, 1, 2], [alpha, -alpha], rtol=1e-6)


def test_bad_arguments():
    with pytest.raises(TypeError, match='pca_lighting: img must be a floating-point array'):
        pca_lighting(numpy.zeros((3, 2, 2), numpy.uint8), 1.0)
    with pytest.raises(ValueError, match=r'pca_lighting: eigen_vector must have shape \(C, K\)'):
        pca_lighting(numpy.zeros((1, 2, 2)), 1.0)

import matplotlib
import numpy
import pytest

from vision.visualizations import vis_image


def test_color_image_pixels(exact_axes, render):
    img = numpy.random.default_rng(0).integers(0, 256, (3, 8, 12)).astype(numpy.float32)
    ax = exact_axes(8, 12)
    assert vis_image(img, ax=ax) is ax
    numpy.testing.assert_array_equal(render(ax).centers(), img.transpose(1, 2, 0))


def test_grayscale_image_pixels(exact_axes, render):
    img = numpy.random.default_rng(0).integers(0, 256, (1, 8, 12)).astype(numpy.float32)
    ax = vis_image(img, ax=exact_axes(8, 12))
    numpy.testing.assert_allclose(render(ax).centers(), numpy.repeat(img, 3, 0).transpose(1, 2, 0),
                                  atol=1)


def test_values_are_clipped(exact_axes, render):
    img = numpy.full((3, 2, 2), 300.0)
    img[:, 0] = -20
    ax = vis_image(img, ax=exact_axes(2, 2))
    numpy.testing.assert_array_equal(render(ax).centers()[:, :, 0], [[0, 0], [255, 255]])


@pytest.mark.parametrize('img', [numpy.zeros((3, 32, 32), numpy.float32), None])
def test_new_axes(img):
    ax = vis_image(img)
    assert isinstance(ax, matplotlib.axes.Axes)
    assert len(ax.images) == (0 if img is None else 1)


@pytest.mark.parametrize('shape', [(32, 32), (2, 32, 32), (32, 32, 3)])
def test_bad_shape(shape):
    with pytest.raises(ValueError, match=r'vis_image: img must have shape \(3, H, W\) or '
                                         rf'\(1, H, W\), but got shape \({shape[0]}, '):
        vis_image(numpy.zeros(shape))

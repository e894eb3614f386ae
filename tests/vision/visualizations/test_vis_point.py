import matplotlib
import numpy
import pytest

from vision.visualizations import vis_point

H, W = 32, 32


@pytest.mark.parametrize('visible', [numpy.array([[True, True, False]]), None])
def test_chainercv_cases(visible):
    rng = numpy.random.default_rng(0)
    img = rng.integers(0, 255, (3, H, W)).astype(numpy.float32)
    point = rng.uniform(size=(1, 3, 2)).astype(numpy.float32)
    ax = vis_point(img, point, visible)
    assert isinstance(ax, matplotlib.axes.Axes)
    assert ax.get_xlim() == (-0.5, W - 0.5) and ax.get_ylim() == (H - 0.5, -0.5)


def test_points_are_drawn_in_part_colors(exact_axes, render):
    point = numpy.array([[[6, 6], [6, 24], [24, 6]], [[24, 24], [16, 16], [2, 30]]],
                        numpy.float32)
    visible = numpy.array([[True, True, True], [True, False, True]])
    ax = vis_point(numpy.zeros((3, H, W)), point, visible, ax=exact_axes(H, W))
    rendered = render(ax)
    cmap = matplotlib.colormaps['gist_rainbow']
    for i in range(2):
        for k in range(3):
            expect = numpy.round(numpy.array(cmap(k / 3)[:3]) * 255) if visible[i, k] else 0
            numpy.testing.assert_allclose(rendered.at(*point[i, k]), expect, atol=1)


def test_list_of_instances_and_no_image():
    ax = vis_point(None, [numpy.zeros((2, 2)), numpy.ones((4, 2))])
    assert len(ax.collections) == 2


def test_bad_visible():
    with pytest.raises(ValueError, match=r'vis_point: visible must have one entry per instance '
                                         r'\(1\), but got 2'):
        vis_point(None, numpy.zeros((1, 3, 2)), numpy.ones((2, 3), bool))
    with pytest.raises(ValueError, match=r'vis_point: visible\[0\] must have shape \(3,\), but '
                                         r'got shape \(2,\)'):
        vis_point(None, numpy.zeros((1, 3, 2)), numpy.ones((1, 2), bool))

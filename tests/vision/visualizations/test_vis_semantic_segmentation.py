import itertools

import matplotlib
import numpy
import pytest

from vision.visualizations import vis_semantic_segmentation, voc_colormap

H, W = 8, 12


def _label():
    label = numpy.repeat(numpy.arange(4).reshape(1, 4), 3, 1).repeat(H, 0).astype(numpy.int32)
    label[:2] = -1
    return label  # columns of classes 0..3, two ignored rows on top


@pytest.mark.parametrize('label_names, label_colors, all_names, no_img', list(itertools.product(
    [None, ('class0', 'class1', 'class2')], [None, ((255, 0, 0), (0, 255, 0), (0, 0, 255))],
    [False, True], [False, True])))
def test_chainercv_cases(label_names, label_colors, all_names, no_img):
    rng = numpy.random.default_rng(0)
    img = None if no_img else rng.integers(0, 255, (3, 32, 48))
    label = rng.integers(-1, 3, (48, 64)).astype(numpy.int32)
    ax, handles = vis_semantic_segmentation(img, label, label_names=label_names,
                                            label_colors=label_colors,
                                            all_label_names_in_legend=all_names)
    assert isinstance(ax, matplotlib.axes.Axes)
    assert all(isinstance(h, matplotlib.patches.Patch) for h in handles)


def test_colors_match_voc_colormap(exact_axes, render):
    label = _label()
    ax, _ = vis_semantic_segmentation(None, label, ax=exact_axes(H, W))
    expect = voc_colormap(numpy.where(label < 0, 0, label))  # ignored: black, as class 0
    numpy.testing.assert_array_equal(render(ax).centers(), expect)


def test_given_colors_ignore_color_and_alpha(exact_axes, render):
    label = _label()
    colors = numpy.array([(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)])
    img = numpy.full((3, H, W), 255.0)
    ax, _ = vis_semantic_segmentation(img, label, label_colors=colors,
                                      ignore_label_color=(0, 255, 255), alpha=0.5,
                                      ax=exact_axes(H, W))
    palette = numpy.concatenate([colors, [(0, 255, 255)]])
    expect = 0.5 * palette[numpy.where(label < 0, 4, label)] + 0.5 * 255
    numpy.testing.assert_allclose(render(ax).centers(), expect, atol=1.5)


def test_legend():
    label = _label()
    label[label == 2] = 1
    names = ('zero', 'one', 'two', 'three', 'four')
    _, handles = vis_semantic_segmentation(None, label, label_names=names)
    assert [h.get_label() for h in handles] == ['zero', 'one', 'three']
    numpy.testing.assert_allclose([h.get_facecolor()[:3] for h in handles],
                                  voc_colormap([0, 1, 3]) / 255)
    _, handles = vis_semantic_segmentation(None, label, label_names=names,
                                           all_label_names_in_legend=True)
    assert [h.get_label() for h in handles] == list(names)
    _, handles = vis_semantic_segmentation(None, label, all_label_names_in_legend=True)
    assert [h.get_label() for h in handles] == ['0', '1', '2', '3']


def test_all_ignored():
    ax, handles = vis_semantic_segmentation(None, numpy.full((4, 4), -1, numpy.int32))
    assert handles == [] and len(ax.images) == 1


def test_mismatch_names_and_colors():
    label = numpy.random.default_rng(0).integers(-1, 2, (48, 64)).astype(numpy.int32)
    with pytest.raises(ValueError, match=r'vis_semantic_segmentation: label_colors must have one '
                                         r'colour per class \(3\), but got 2'):
        vis_semantic_segmentation(None, label, label_names=('class0', 'class1', 'class2'),
                                  label_colors=((255, 0, 0), (0, 255, 0)))


def test_exceed_value():
    label = numpy.random.default_rng(0).integers(10, 20, (48, 64)).astype(numpy.int32)
    with pytest.raises(ValueError, match=r'label values must be less than the number of classes '
                                         r'\(3\), but got 19'):
        vis_semantic_segmentation(None, label, label_names=('class0', 'class1', 'class2'))


def test_bad_label():
    with pytest.raises(ValueError, match=r'label must have shape \(H, W\)'):
        vis_semantic_segmentation(None, numpy.zeros((1, 4, 4), numpy.int32))
    with pytest.raises(TypeError, match='label must be an integer array, but got dtype float64'):
        vis_semantic_segmentation(None, numpy.zeros((4, 4)))

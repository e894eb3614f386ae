import matplotlib
import numpy
import pytest

from vision.visualizations import vis_instance_segmentation, voc_colormap

H, W = 32, 48
RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)

CASES = [
    {'n_bbox': 3, 'label': (0, 1, 2), 'score': (0, 0.5, 1), 'label_names': ('c0', 'c1', 'c2')},
    {'n_bbox': 3, 'label': (0, 1, 2), 'score': None, 'label_names': ('c0', 'c1', 'c2')},
    {'n_bbox': 3, 'label': (0, 1, 2), 'score': (0, 0.5, 1), 'label_names': None},
    {'n_bbox': 3, 'label': None, 'score': (0, 0.5, 1), 'label_names': ('c0', 'c1', 'c2')},
    {'n_bbox': 3, 'label': None, 'score': (0, 0.5, 1), 'label_names': None},
    {'n_bbox': 3, 'label': None, 'score': None, 'label_names': None},
    {'n_bbox': 3, 'label': (0, 1, 1), 'score': (0, 0.5, 1), 'label_names': ('c0', 'c1', 'c2')},
    {'n_bbox': 0, 'label': (), 'score': (), 'label_names': ('c0', 'c1', 'c2')},
    {'n_bbox': 3, 'label': (0, 1, 2), 'score': (0, 0.5, 1), 'label_names': ('c0', 'c1', 'c2'),
     'instance_colors': [RED, GREEN, BLUE, (100, 100, 100)]},
    {'n_bbox': 3, 'label': (0, 1, 2), 'score': (0, 0.5, 1), 'label_names': ('c0', 'c1', 'c2'),
     'no_img': True},
]


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('sort_by_score', [False, True])
def test_chainercv_cases(case, sort_by_score):
    rng = numpy.random.default_rng(0)
    img = None if case.get('no_img') else rng.integers(0, 255, (3, H, W))
    mask = rng.integers(0, 2, (case['n_bbox'], H, W)).astype(bool)
    label = None if case['label'] is None else numpy.array(case['label'], dtype=numpy.int32)
    score = None if case['score'] is None else numpy.array(case['score'])
    ax = vis_instance_segmentation(img, mask, label, score, label_names=case['label_names'],
                                   instance_colors=case.get('instance_colors'),
                                   sort_by_score=sort_by_score)
    assert isinstance(ax, matplotlib.axes.Axes)


def _masks():
    mask = numpy.zeros((3, H, W), bool)
    mask[0, 4:20, 4:20] = True
    mask[1, 12:28, 12:28] = True  # overlaps mask 0 on [12:20, 12:20]
    mask[2, 2:6, 36:44] = True
    return mask


def test_mask_colors_are_voc_colormap_blended(exact_axes, render):
    mask = _masks()
    img = numpy.zeros((3, H, W), numpy.float32)
    ax = vis_instance_segmentation(img, mask, ax=exact_axes(H, W))
    rendered = render(ax)
    colors = voc_colormap([1, 2, 3])
    alpha = round(0.7 * 255) / 255
    numpy.testing.assert_allclose(rendered.at(6, 6), colors[0] * alpha, atol=2)
    numpy.testing.assert_allclose(rendered.at(25, 25), colors[1] * alpha, atol=2)
    numpy.testing.assert_allclose(rendered.at(15, 15), colors[1] * alpha, atol=2)  # later wins
    numpy.testing.assert_allclose(rendered.at(3, 40), colors[2] * alpha, atol=2)
    numpy.testing.assert_array_equal(rendered.at(30, 2), (0, 0, 0))


@pytest.mark.parametrize('sort_by_score, front', [(True, GREEN), (False, BLUE)])
def test_higher_score_in_front(exact_axes, render, sort_by_score, front):
    mask = _masks()[:2]
    ax = vis_instance_segmentation(None, mask, score=numpy.array([0.9, 0.1]),
                                   instance_colors=[GREEN, BLUE], alpha=1,
                                   sort_by_score=sort_by_score, ax=exact_axes(H, W))
    for text in list(ax.texts):
        text.remove()
    numpy.testing.assert_array_equal(render(ax).at(15, 15), front)


def test_captions():
    mask = _masks()
    mask[2] = False  # an empty mask gets no caption
    ax = vis_instance_segmentation(None, mask, numpy.array([1, 0, 1]),
                                   numpy.array([0.8, 0.3, 0.5]), label_names=['cat', 'dog'])
    assert [t.get_text() for t in ax.texts] == ['cat: 0.30', 'dog: 0.80']
    # At the top centre of the mask's bounding box.
    assert [t.get_position() for t in ax.texts] == [(20, 12), (12, 4)]


INVALID = [
    ((0, 1), (0, 0.5, 1), 'label must have one entry per instance \\(3\\), but got 2'),
    ((0, 1, 2, 1), (0, 0.5, 1), 'label must have one entry per instance \\(3\\), but got 4'),
    ((0, 1, 2), (0, 0.5), 'score must have one entry per instance \\(3\\), but got 2'),
    ((0, 1, 2), (0, 0.5, 1, 0.75), 'score must have one entry per instance \\(3\\), but got 4'),
    ((0, 1, 3), (0, 0.5, 1), 'label must be in \\[0, 3\\) to index label_names, but got 3'),
    ((-1, 1, 2), (0, 0.5, 1), 'label must be in \\[0, 3\\) to index label_names, but got -1'),
]


@pytest.mark.parametrize('label, score, match', INVALID)
@pytest.mark.parametrize('sort_by_score', [False, True])
def test_invalid_inputs(label, score, match, sort_by_score):
    img = numpy.zeros((3, H, W))
    mask = numpy.random.default_rng(0).integers(0, 2, (3, H, W)).astype(bool)
    with pytest.raises(ValueError, match='vis_instance_segmentation: ' + match):
        vis_instance_segmentation(img, mask, numpy.array(label), numpy.array(score),
                                  label_names=('c0', 'c1', 'c2'), sort_by_score=sort_by_score)


def test_bad_mask():
    with pytest.raises(ValueError, match=r'mask must have shape \(R, H, W\), but got shape '
                                         r'\(32, 48\)'):
        vis_instance_segmentation(None, numpy.zeros((H, W), bool))

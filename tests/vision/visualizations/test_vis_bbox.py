import matplotlib
import numpy
import pytest

from vision.visualizations import vis_bbox

H, W = 32, 48
RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)


def _random_bbox(n, rng):
    y_min = rng.uniform(0, H - 16, n)
    x_min = rng.uniform(0, W - 16, n)
    size = rng.uniform(8, 16, (n, 2))
    return numpy.stack([y_min, x_min, y_min + size[:, 0], x_min + size[:, 1]], 1)


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
     'no_img': True},
    {'n_bbox': 3, 'label': (0, 1, 2), 'score': (0, 0.5, 1), 'label_names': ('c0', 'c1', 'c2'),
     'instance_colors': [RED, GREEN, BLUE, (100, 100, 100)]},
]


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('sort_by_score', [False, True])
def test_chainercv_cases(case, sort_by_score):
    rng = numpy.random.default_rng(0)
    img = None if case.get('no_img') else rng.integers(0, 255, (3, H, W))
    label = None if case['label'] is None else numpy.array(case['label'], dtype=int)
    score = None if case['score'] is None else numpy.array(case['score'])
    ax = vis_bbox(img, _random_bbox(case['n_bbox'], rng), label, score,
                  label_names=case['label_names'],
                  instance_colors=case.get('instance_colors'), sort_by_score=sort_by_score)
    assert isinstance(ax, matplotlib.axes.Axes)
    assert len(ax.patches) == case['n_bbox']


def _black():
    return numpy.zeros((3, H, W), numpy.float32)


def test_edges_are_drawn_where_the_box_is(exact_axes, render):
    bbox = numpy.array([[6, 10, 26, 40]], numpy.float32)
    ax = vis_bbox(_black(), bbox, ax=exact_axes(H, W), linewidth=4)
    rendered = render(ax)
    for y, x in [(6, 25), (26, 25), (16, 10), (16, 40)]:  # the middle of each edge
        numpy.testing.assert_array_equal(rendered.at(y, x), RED)
    for y, x in [(16, 25), (3, 25), (29, 25), (16, 5), (16, 45)]:  # inside and outside
        numpy.testing.assert_array_equal(rendered.at(y, x), (0, 0, 0))


def test_instance_colors_alpha_and_cycling(exact_axes, render):
    bbox = numpy.array([[4, 4, 12, 20], [18, 4, 28, 20], [4, 26, 28, 44]], numpy.float32)
    ax = vis_bbox(_black(), bbox, instance_colors=[GREEN, BLUE], alpha=0.5, linewidth=4,
                  ax=exact_axes(H, W))
    rendered = render(ax)
    numpy.testing.assert_allclose(rendered.at(8, 4), (0, 128, 0), atol=2)
    numpy.testing.assert_allclose(rendered.at(23, 4), (0, 0, 128), atol=2)
    numpy.testing.assert_allclose(rendered.at(16, 44), (0, 128, 0), atol=2)  # cycled


@pytest.mark.parametrize('sort_by_score, front', [(True, GREEN), (False, BLUE)])
def test_higher_score_in_front(exact_axes, render, sort_by_score, front):
    bbox = numpy.array([[6, 10, 26, 40]] * 2, numpy.float32)
    ax = vis_bbox(_black(), bbox, score=numpy.array([0.9, 0.1]), instance_colors=[GREEN, BLUE],
                  sort_by_score=sort_by_score, linewidth=4, ax=exact_axes(H, W))
    for text in list(ax.texts):  # the score captions
        text.remove()
    numpy.testing.assert_array_equal(render(ax).at(16, 10), front)


def test_captions():
    bbox = numpy.array([[1, 2, 10, 12], [3, 4, 20, 24], [5, 6, 30, 36]], numpy.float32)
    ax = vis_bbox(None, bbox, numpy.array([2, 0, 1]), numpy.array([0.7, 0.9, 0.25]),
                  label_names=['cat', 'dog', 'bird'])
    # Drawn by ascending score; each caption at the top-left corner of its box.
    assert [t.get_text() for t in ax.texts] == ['dog: 0.25', 'bird: 0.70', 'cat: 0.90']
    assert [t.get_position() for t in ax.texts] == [(6, 5), (2, 1), (4, 3)]
    ax = vis_bbox(None, bbox, numpy.array([2, 0, 1]), label_names=None)
    assert len(ax.texts) == 0


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
    bbox = numpy.random.default_rng(0).uniform(size=(3, 4))
    with pytest.raises(ValueError, match='vis_bbox: ' + match):
        vis_bbox(img, bbox, numpy.array(label), numpy.array(score),
                 label_names=('c0', 'c1', 'c2'), sort_by_score=sort_by_score)


def test_bad_bbox_and_colors():
    with pytest.raises(ValueError, match=r'vis_bbox: bbox must have shape \(R, 4\), but got '
                                         r'shape \(3,\)'):
        vis_bbox(None, numpy.zeros(3))
    with pytest.raises(ValueError, match='vis_bbox: instance_colors must be a non-empty '
                                         'sequence of RGB triples'):
        vis_bbox(None, numpy.zeros((1, 4)), instance_colors=[(1, 2)])

import numpy
import pytest
from PIL import Image, ImageFont

from vision.visualizations import draw_bbox, voc_colormap

H, W = 64, 96
RED, GREEN, BLUE = (255, 0, 0), (0, 255, 0), (0, 0, 255)


def _gray(value=50):
    return numpy.full((3, H, W), value, numpy.float32)


def _pixels(pil):
    return numpy.asarray(pil).astype(int)


def test_outline_pixels():
    bbox = numpy.array([[20, 30, 50, 70]], numpy.float32)
    out = draw_bbox(_gray(), bbox, linewidth=2)
    assert isinstance(out, Image.Image) and out.mode == 'RGB' and out.size == (W, H)
    pixels = _pixels(out)
    outline = numpy.zeros((H, W), bool)
    outline[20:50, 30:70] = True
    outline[22:48, 32:68] = False  # two pixels wide, inside the box
    numpy.testing.assert_array_equal(pixels[outline], numpy.broadcast_to(RED, (outline.sum(), 3)))
    numpy.testing.assert_array_equal(pixels[~outline], 50)


def test_default_colors_follow_labels():
    bbox = numpy.array([[10, 10, 30, 30], [10, 50, 30, 80]], numpy.float32)
    pixels = _pixels(draw_bbox(_gray(), bbox, label=numpy.array([14, 6])))
    numpy.testing.assert_array_equal(pixels[20, 10], voc_colormap([15])[0])
    numpy.testing.assert_array_equal(pixels[20, 50], voc_colormap([7])[0])


def test_instance_colors_cycle():
    bbox = numpy.array([[10, 10, 30, 30], [10, 40, 30, 60], [40, 10, 60, 30]], numpy.float32)
    pixels = _pixels(draw_bbox(_gray(), bbox, instance_colors=[GREEN, BLUE]))
    numpy.testing.assert_array_equal(pixels[[20, 20, 50], [10, 40, 10]], [GREEN, BLUE, GREEN])


@pytest.mark.parametrize('sort_by_score, front', [(True, GREEN), (False, BLUE)])
def test_higher_score_drawn_over(sort_by_score, front):
    bbox = numpy.array([[20, 20, 50, 50]] * 2, numpy.float32)
    pixels = _pixels(draw_bbox(_gray(), bbox, score=numpy.array([0.9, 0.1]),
                               instance_colors=[GREEN, BLUE], sort_by_score=sort_by_score))
    numpy.testing.assert_array_equal(pixels[35, 20], front)


def test_caption_tag_above_the_box():
    bbox = numpy.array([[40, 10, 60, 60]], numpy.float32)
    pixels = _pixels(draw_bbox(_gray(), bbox, label=numpy.array([0]), score=numpy.array([0.5]),
                               label_names=['person'], instance_colors=[BLUE]))
    above = pixels[:40]
    is_blue = (above == BLUE).all(axis=2)
    rows, cols = numpy.nonzero(is_blue.any(axis=1))[0], numpy.nonzero(is_blue.any(axis=0))[0]
    # The tag sits on the top edge, from the left corner of the box.
    assert rows.max() == 39 and 10 < rows.min() < 39 and cols.min() == 10
    tag = above[rows.min():, 10:cols.max() + 1]
    # Blue, and white text blended on it.
    assert (tag[..., 2] == 255).all() and (tag[..., 0] == tag[..., 1]).all()
    assert ((tag[..., 0] > 100).sum()) > 10
    outside = numpy.ones(above.shape[:2], bool)
    outside[rows.min():, 10:cols.max() + 1] = False
    numpy.testing.assert_array_equal(above[outside], 50)


def test_caption_inside_when_no_room_above():
    bbox = numpy.array([[0, 10, 40, 60]], numpy.float32)
    pixels = _pixels(draw_bbox(_gray(), bbox, score=numpy.array([0.5]),
                               instance_colors=[(255, 255, 0)]))
    inside = pixels[2:20, 12:58]
    assert ((inside == (255, 255, 0)).all(axis=2)).sum() > 50
    is_text = (inside[..., 2] == 0) & (inside[..., 0] < 200)  # black blended on the yellow tag
    assert is_text.sum() > 10


def test_no_caption_without_names_or_scores():
    bbox = numpy.array([[40, 10, 60, 60]], numpy.float32)
    pixels = _pixels(draw_bbox(_gray(), bbox, label=numpy.array([0])))
    numpy.testing.assert_array_equal(pixels[:40], 50)


def test_grayscale_image_empty_bbox_and_font():
    img = numpy.random.default_rng(0).integers(0, 256, (1, H, W)).astype(numpy.float32)
    out = draw_bbox(img, numpy.zeros((0, 4)), label=numpy.zeros(0, int), score=numpy.zeros(0))
    numpy.testing.assert_array_equal(_pixels(out), numpy.repeat(img, 3, 0).transpose(1, 2, 0))
    font = ImageFont.load_default(size=20)
    out = draw_bbox(img, numpy.array([[30, 5, 60, 90]]), score=numpy.array([1.0]), font=font)
    assert out.size == (W, H)


def test_degenerate_and_outside_boxes():
    bbox = numpy.array([[10, 10, 10, 10], [-20, -20, 200, 200]], numpy.float32)
    pixels = _pixels(draw_bbox(_gray(), bbox, instance_colors=[GREEN, BLUE]))
    numpy.testing.assert_array_equal(pixels[10, 10], GREEN)
    numpy.testing.assert_array_equal(pixels[30, 48], 50)


def test_invalid_inputs():
    bbox = numpy.zeros((3, 4))
    with pytest.raises(ValueError, match=r'draw_bbox: label must have one entry per instance'):
        draw_bbox(_gray(), bbox, label=numpy.array([0, 1]))
    with pytest.raises(ValueError, match=r'draw_bbox: label must be in \[0, 2\)'):
        draw_bbox(_gray(), bbox, label=numpy.array([0, 1, 2]), label_names=['a', 'b'])
    with pytest.raises(ValueError, match=r'draw_bbox: img must have shape'):
        draw_bbox(numpy.zeros((H, W)), bbox)
    with pytest.raises(ValueError, match=r'draw_bbox: bbox must have shape \(R, 4\)'):
        draw_bbox(_gray(), numpy.zeros((3, 5)))

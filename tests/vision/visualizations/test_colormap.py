import numpy
import pytest

from vision.visualizations import voc_colormap

# The PASCAL VOC palette as published with the dataset (VOCdevkit's VOClabelcolormap).
VOC_PALETTE = [
    (0, 0, 0), (128, 0, 0), (0, 128, 0), (128, 128, 0), (0, 0, 128), (128, 0, 128),
    (0, 128, 128), (128, 128, 128), (64, 0, 0), (192, 0, 0), (64, 128, 0), (192, 128, 0),
    (64, 0, 128), (192, 0, 128), (64, 128, 128), (192, 128, 128), (0, 64, 0), (128, 64, 0),
    (0, 192, 0), (128, 192, 0), (0, 64, 128),
]


def test_voc_palette():
    colors = voc_colormap(range(21))
    assert colors.shape == (21, 3) and colors.dtype == numpy.float32
    numpy.testing.assert_array_equal(colors, VOC_PALETTE)


def test_void_label():
    numpy.testing.assert_array_equal(voc_colormap([255]), [(224, 224, 192)])


def test_any_shape_and_iterables():
    labels = numpy.array([[0, 1], [2, 15]])
    colors = voc_colormap(labels)
    assert colors.shape == (2, 2, 3)
    numpy.testing.assert_array_equal(colors.reshape(4, 3), voc_colormap(iter([0, 1, 2, 15])))


def test_empty():
    assert voc_colormap([]).shape == (0, 3)


def test_bad_labels():
    with pytest.raises(ValueError, match='voc_colormap: labels must be non-negative, but got -1'):
        voc_colormap([0, -1])
    with pytest.raises(TypeError, match='voc_colormap: labels must be integers, but got dtype '
                                        'float64'):
        voc_colormap([0.5])

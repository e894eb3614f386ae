import importlib

import numpy
import pytest

from vision.utils import mask_iou


def _masks(*rows):
    return numpy.array(rows, dtype=bool)


@pytest.mark.parametrize('mask_a, mask_b, expected', [
    (_masks([[0, 0], [1, 1]], [[1, 1], [0, 0]]),
     _masks([[0, 0], [1, 1]], [[1, 1], [0, 0]], [[1, 0], [1, 1]], [[1, 1], [0, 1]]),
     [[1, 0, 2 / 3, 1 / 4], [0, 1, 1 / 4, 2 / 3]]),
    (_masks([[0, 0], [1, 1]], [[1, 1], [0, 0]], [[1, 1], [1, 0]], [[0, 1], [1, 1]]),
     _masks([[0, 0], [1, 1]], [[1, 1], [0, 0]]),
     [[1, 0], [0, 1], [1 / 4, 2 / 3], [2 / 3, 1 / 4]]),
    (numpy.zeros((0, 2, 2), bool), _masks([[0, 0], [0, 0]]), numpy.zeros((0, 1))),
])
def test_mask_iou_cases(mask_a, mask_b, expected):
    iou = mask_iou(mask_a, mask_b)
    assert isinstance(iou, numpy.ndarray)
    assert iou.dtype == numpy.float32
    numpy.testing.assert_equal(iou, numpy.asarray(expected, numpy.float32))


def test_mask_iou_matches_pixel_counts():
    rng = numpy.random.default_rng(0)
    mask_a = rng.uniform(size=(5, 30, 40)) < 0.3
    mask_b = rng.uniform(size=(7, 30, 40)) < 0.6
    expected = [[(a & b).sum() / (a | b).sum() for b in mask_b] for a in mask_a]
    numpy.testing.assert_allclose(mask_iou(mask_a, mask_b), expected, rtol=1e-6)


def test_mask_iou_chunks_pixels(monkeypatch):
    # The package attribute mask_iou is the function; the module is reached by its path.
    module = importlib.import_module('vision.utils.mask.mask_iou')
    monkeypatch.setattr(module, '_CHUNK', 50)
    rng = numpy.random.default_rng(1)
    mask = rng.uniform(size=(4, 13, 11)) < 0.5
    expected = [[(a & b).sum() / (a | b).sum() for b in mask] for a in mask]
    numpy.testing.assert_allclose(mask_iou(mask, mask), expected, rtol=1e-6)


def test_empty_masks_give_nan():
    empty = numpy.zeros((1, 3, 3), bool)
    assert numpy.isnan(mask_iou(empty, empty)[0, 0])
    full = numpy.ones((1, 3, 3), bool)
    assert mask_iou(empty, full)[0, 0] == 0


@pytest.mark.parametrize('mask_a, mask_b, error, message', [
    (numpy.zeros((1, 2, 3), bool), numpy.zeros((1, 2, 2), bool), IndexError,
     r'mask_iou: mask_a and mask_b must have the same \(H, W\), but got shapes \(1, 2, 3\) '
     r'and \(1, 2, 2\)'),
    (numpy.zeros((1, 2, 2), bool), numpy.zeros((1, 3, 2), bool), ValueError, 'same'),
    (numpy.zeros((2, 2), bool), numpy.zeros((1, 2, 2), bool), ValueError,
     r'mask_a must have shape \(R, H, W\), but got shape \(2, 2\)'),
    (numpy.zeros((1, 2, 2), numpy.uint8), numpy.zeros((1, 2, 2), bool), TypeError,
     'mask_a must be a boolean array, but got dtype uint8'),
])
def test_mask_iou_invalid(mask_a, mask_b, error, message):
    with pytest.raises(error, match=message):
        mask_iou(mask_a, mask_b)

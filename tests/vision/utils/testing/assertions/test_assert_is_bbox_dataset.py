import numpy
import pytest

from vision.utils import assert_is_bbox_dataset, generate_random_bbox


class _Dataset:
    """Ten examples ``(img, bbox, label) + options``, each passed through ``change``."""

    def __init__(self, options=(), empty_bbox=False, change=None):
        self.options, self.empty_bbox, self.change = options, empty_bbox, change

    def __len__(self):
        return 10

    def __getitem__(self, i):
        img = numpy.random.randint(0, 256, size=(3, 48, 64))
        n_bbox = 0 if self.empty_bbox else numpy.random.randint(10, 20)
        bbox = generate_random_bbox(n_bbox, (48, 64), 5, 20)
        label = numpy.random.randint(0, 20, size=n_bbox).astype(numpy.int32)
        example = (img, bbox, label) + self.options
        return example if self.change is None else self.change(*example)


@pytest.mark.parametrize('dataset', [_Dataset(), _Dataset(empty_bbox=True),
                                     _Dataset(('option',))])
def test_valid(dataset):
    assert_is_bbox_dataset(dataset, 20)


@pytest.mark.parametrize('change, message', [
    (lambda img, bbox, label: (img, bbox), 'an example must have at least 3 elements'),
    (lambda img, bbox, label: (img[0], bbox, label), 'img must have shape'),
    (lambda img, bbox, label: (img, bbox + 1000, label), r'.*\(inside the image\)'),
    (lambda img, bbox, label: (img, bbox.astype(float), label), 'bbox must have dtype float32'),
    (lambda img, bbox, label: (img, bbox, label + 1000),
     r'the values of label must be in \[0, 19\]'),
    (lambda img, bbox, label: (img, bbox, label[1:]), r'label must have one entry per box '
                                                      r'\(\d+\), but got \d+'),
    (lambda img, bbox, label: (img, bbox, label.astype(numpy.int64)),
     'label must have dtype int32, but got dtype int64'),
    (lambda img, bbox, label: (img, bbox, label[:, None]), r'label must have shape \(R,\)'),
])
def test_invalid(change, message):
    with pytest.raises(AssertionError, match='assert_is_bbox_dataset: example 0: ' + message):
        assert_is_bbox_dataset(_Dataset(change=change), 20)

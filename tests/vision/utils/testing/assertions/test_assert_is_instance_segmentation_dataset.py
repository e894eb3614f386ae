import numpy
import pytest

from vision.utils import assert_is_instance_segmentation_dataset


class _Dataset:
    """Ten examples ``(img, mask, label) + options``, each passed through ``change``."""

    def __init__(self, options=(), change=None, n_inst=None):
        self.options, self.change, self.n_inst = options, change, n_inst

    def __len__(self):
        return 10

    def __getitem__(self, i):
        img = numpy.random.randint(0, 256, size=(3, 48, 64))
        n_inst = numpy.random.randint(10, 20) if self.n_inst is None else self.n_inst
        mask = numpy.random.randint(0, 2, size=(n_inst, 48, 64)).astype(bool)
        label = numpy.random.randint(0, 20, size=n_inst).astype(numpy.int32)
        example = (img, mask, label) + self.options
        return example if self.change is None else self.change(*example)


@pytest.mark.parametrize('dataset', [_Dataset(), _Dataset(('option',)), _Dataset(n_inst=0)])
def test_valid(dataset):
    assert_is_instance_segmentation_dataset(dataset, 20)


@pytest.mark.parametrize('change, message', [
    (lambda img, mask, label: (img, mask), 'an example must have at least 3 elements'),
    (lambda img, mask, label: (img[0], mask, label), 'img must have shape'),
    (lambda img, mask, label: (img, mask[0], label), r'mask must have shape \(R, H, W\) with '
                                                     r'\(H, W\) = \(48, 64\), but got shape '
                                                     r'\(48, 64\)'),
    (lambda img, mask, label: (img, mask[:, 1:], label), 'mask must have shape'),
    (lambda img, mask, label: (img, mask.astype(numpy.uint8), label),
     'mask must have dtype bool'),
    (lambda img, mask, label: (img, mask, label + 1000),
     r'the values of label must be in \[0, 19\]'),
    (lambda img, mask, label: (img, mask[1:], label), 'label must have one entry per mask'),
    (lambda img, mask, label: (img, mask, label[1:]), 'label must have one entry per mask'),
])
def test_invalid(change, message):
    with pytest.raises(AssertionError, match='assert_is_instance_segmentation_dataset: example '
                                             '0: ' + message):
        assert_is_instance_segmentation_dataset(_Dataset(change=change), 20)

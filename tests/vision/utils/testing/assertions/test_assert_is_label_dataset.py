import numpy
import pytest

from vision.utils import assert_is_label_dataset


class _Dataset:
    """Ten examples ``(img, label) + options``, each passed through ``change``."""

    def __init__(self, color=True, options=(), change=None):
        self.color, self.options, self.change = color, options, change

    def __len__(self):
        return 10

    def __getitem__(self, i):
        img = numpy.random.randint(0, 256, size=(3 if self.color else 1, 48, 64))
        example = (img, numpy.random.randint(0, 20, dtype=numpy.int32)) + self.options
        return example if self.change is None else self.change(*example)


@pytest.mark.parametrize('color', [True, False])
@pytest.mark.parametrize('options', [(), ('option',)])
def test_valid(color, options):
    assert_is_label_dataset(_Dataset(color, options), 20, color=color)
    assert_is_label_dataset(_Dataset(color, options), 20, n_example=3, color=color)


@pytest.mark.parametrize('color', [True, False])
@pytest.mark.parametrize('change, message', [
    # An image alone: its first two channels, if any, are taken for img and label.
    (lambda img, label: img, 'img must have shape|an example must have at least 2 elements'),
    (lambda img, label: img[:1], 'an example must have at least 2 elements'),
    (lambda img, label: (img[0], label), 'img must have shape'),
    (lambda img, label: (img, numpy.int32(label + 1000)),
     r'label must be in \[0, 19\], but got 10\d\d'),
    (lambda img, label: (img, int(label)),
     'label must be a numpy.int32 scalar, but got a value of type int'),
    (lambda img, label: (img, numpy.int64(label)),
     'label must be a numpy.int32 scalar, but got a scalar of dtype int64'),
])
def test_invalid(color, change, message):
    with pytest.raises(AssertionError, match=f'assert_is_label_dataset: example 0: ({message})'):
        assert_is_label_dataset(_Dataset(color, change=change), 20, color=color)


def test_empty_dataset():
    with pytest.raises(AssertionError, match='the dataset must not be empty'):
        assert_is_label_dataset([], 20)

import numpy
import pytest

from vision.utils import assert_is_semantic_segmentation_dataset


class _Dataset:
    """Ten examples ``(img, label) + options``, each passed through ``change``."""

    def __init__(self, options=(), change=None):
        self.options, self.change = options, change

    def __len__(self):
        return 10

    def __getitem__(self, i):
        img = numpy.random.randint(0, 256, size=(3, 48, 64))
        label = numpy.random.randint(-1, 21, size=(48, 64)).astype(numpy.int32)
        example = (img, label) + self.options
        return example if self.change is None else self.change(*example)


@pytest.mark.parametrize('options', [(), ('option',)])
def test_valid(options):
    assert_is_semantic_segmentation_dataset(_Dataset(options), 21)
    assert_is_semantic_segmentation_dataset(_Dataset(options), 21, n_example=2)


@pytest.mark.parametrize('change, message', [
    (lambda img, label: img, 'img must have shape'),
    (lambda img, label: (img[0], label), 'img must have shape'),
    (lambda img, label: (img, label + 1000), r'the values of label must be in \[-1, 20\]'),
    (lambda img, label: (img, label - 1000), r'the values of label must be in \[-1, 20\]'),
    (lambda img, label: (img, label[1:]), r'label must have shape \(H, W\) = \(48, 64\), but '
                                          r'got shape \(47, 64\)'),
    (lambda img, label: (img, label.astype(numpy.uint8)), 'label must have dtype int32'),
    (lambda img, label: (img, label.tolist()),
     'label must be a numpy.ndarray, but got a value of type list'),
])
def test_invalid(change, message):
    with pytest.raises(AssertionError, match='assert_is_semantic_segmentation_dataset: example '
                                             '0: ' + message):
        assert_is_semantic_segmentation_dataset(_Dataset(change=change), 21)

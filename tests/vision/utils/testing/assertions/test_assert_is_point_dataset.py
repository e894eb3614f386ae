import numpy
import pytest

from vision.utils import assert_is_point_dataset


class _Dataset:
    """Ten examples ``(img, point[, visible]) + options`` of two instances."""

    def __init__(self, n_points, return_visible, options=(), change=None):
        self.n_points, self.return_visible = n_points, return_visible
        self.options, self.change = options, change

    def __len__(self):
        return 10

    def __getitem__(self, i):
        img = numpy.random.randint(0, 256, size=(3, 48, 64))
        n_point = numpy.random.choice(self.n_points)
        point = numpy.stack((numpy.random.uniform(0, 48, size=(2, n_point)),
                             numpy.random.uniform(0, 64, size=(2, n_point))),
                            axis=2).astype(numpy.float32)
        example = (img, point)
        if self.return_visible:
            example += (numpy.random.randint(0, 2, size=(2, n_point)).astype(bool),)
        example += self.options
        return example if self.change is None else self.change(*example)


@pytest.mark.parametrize('dataset, n_point, no_visible', [
    (_Dataset([10, 15], True), None, False),
    (_Dataset([10, 15], False), None, False),
    (_Dataset([15], True), 15, False),
    (_Dataset([15], False), 15, False),
    (_Dataset([10, 15], True, ('option',)), None, False),
    (_Dataset([10, 15], False, ('option',)), None, True),
    (_Dataset([15], False, ('option',)), 15, True),
])
def test_valid(dataset, n_point, no_visible):
    assert_is_point_dataset(dataset, n_point, 20, no_visible)


@pytest.mark.parametrize('dataset, n_point, message', [
    (_Dataset([15], True), 10, r'point\[0\] must have 10 points, but got 15'),
    (_Dataset([15], False), 10, r'point\[0\] must have 10 points'),
    (_Dataset([10], True, change=lambda img, point, visible: img), None, 'img must have shape'),
    (_Dataset([10], True, change=lambda img, point, visible: (img[0], point, visible)), None,
     'img must have shape'),
    (_Dataset([10], True, change=lambda img, point, visible: (img, point + 1000, visible | True)),
     None, r'the visible points of point\[0\] must lie within the image'),
    # Without no_visible, a third element that is not a visibility is taken for one.
    (_Dataset([10], False, ('option',)), None, 'visible must be an array or a list'),
])
def test_invalid(dataset, n_point, message):
    with pytest.raises(AssertionError, match='assert_is_point_dataset: example [0-9]+: '
                                             + message):
        assert_is_point_dataset(dataset, n_point, 20)

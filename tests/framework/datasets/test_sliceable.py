"""Sliceable datasets: slices read only the values asked for."""

import numpy
import pytest

from framework.datasets import GetterDataset, TupleDataset, sliceable


class _Images(GetterDataset):
    """Images (expensive) and their annotations (cheap), counting the getter calls."""

    def __init__(self, n=5):
        super().__init__()
        self.n = n
        self.calls = []
        self.add_getter('img', self.get_image)
        self.add_getter(('bbox', 'label'), self.get_annotation)

    def __len__(self):
        return self.n

    def get_image(self, i):
        self.calls.append(('img', i))
        return numpy.full((3, 2, 2), i, numpy.float32)

    def get_annotation(self, i):
        self.calls.append(('annotation', i))
        return numpy.array([[0, 0, i, i]], numpy.float32), numpy.array([i % 2], numpy.int32)


def test_getter_dataset_examples():
    d = _Images()
    assert d.keys == ('img', 'bbox', 'label')
    img, bbox, label = d[3]
    assert img[0, 0, 0] == 3 and bbox[0, 2] == 3 and label[0] == 1
    assert d[-1][2][0] == 0
    assert len(d[1:3]) == 2
    assert len(list(d)) == 5
    with pytest.raises(IndexError):
        d[5]


def test_slice_reads_only_the_getters_needed():
    d = _Images()
    labels = d.slice[:, 'label']
    assert len(labels) == 5
    assert labels.keys == 'label'
    assert [int(v[0]) for v in labels] == [0, 1, 0, 1, 0]
    assert all(kind == 'annotation' for kind, _ in d.calls)
    d.calls.clear()
    pairs = d.slice[[4, 1], ('label', 'bbox')]
    assert pairs.keys == ('label', 'bbox')
    label, bbox = pairs[0]
    assert label[0] == 0 and bbox[0, 3] == 4
    # One call of the annotation getter gives both of its values.
    assert d.calls == [('annotation', 4)]


def test_slice_indices_keys_and_masks():
    d = _Images()
    assert len(d.slice[1:4]) == 3
    assert d.slice[::2].keys == ('img', 'bbox', 'label')
    assert [int(x[0]) for x in d.slice[[True, False, True, False, True], 2]] == [0, 0, 0]
    assert d.slice[:, [False, True, True]].keys == ('bbox', 'label')
    assert d.slice[:, -1].keys == 'label'
    nested = d.slice[1:, ('bbox', 'label')].slice[::2, 'label']
    assert [int(x[0]) for x in nested] == [1, 1]
    with pytest.raises(KeyError, match="no key 'mask'"):
        d.slice[:, 'mask']
    with pytest.raises(IndexError, match='key index 3 is out of bounds'):
        d.slice[:, 3]
    with pytest.raises(ValueError, match='boolean mask over the examples must have length 5'):
        d.slice[[True, False]]


def test_keys_setter_and_unnamed_getters():
    class Pairs(GetterDataset):
        def __init__(self):
            super().__init__()
            self.add_getter(2, lambda i: (i, -i))
            self.add_getter(1, lambda i: i * 10)

        def __len__(self):
            return 3

    d = Pairs()
    assert d.keys == (None, None, None)
    assert d[1] == (1, -1, 10)
    d.keys = 2
    assert d.keys is None
    assert d[2] == 20


def test_sliceable_tuple_dataset():
    d = sliceable.TupleDataset(('feat', [0, 1, 2]), [0, 1, 4])
    assert d.keys == ('feat', None)
    assert d.slice[:, ['feat', 1]][:] == [(0, 0), (1, 1), (2, 4)]
    images = _Images(3)
    more = sliceable.TupleDataset(images, ('extra', numpy.arange(3)))
    assert more.keys == ('img', 'bbox', 'label', 'extra')
    assert [(int(lab[0]), int(e)) for lab, e in more.slice[:, ('label', 'extra')]] == \
        [(0, 0), (1, 1), (0, 2)]
    assert all(kind == 'annotation' for kind, _ in images.calls)
    assert TupleDataset is not sliceable.TupleDataset
    with pytest.raises(ValueError, match='same length'):
        sliceable.TupleDataset([1, 2], [1])


def test_sliceable_transform_dataset():
    base = sliceable.TupleDataset(('a', [1, 2, 3]), ('b', [4, 5, 6]))
    d = sliceable.TransformDataset(base, ('sum', 'diff'), lambda e: (e[0] + e[1], e[1] - e[0]))
    assert d.keys == ('sum', 'diff')
    assert d[0] == (5, 3)
    assert d.slice[:, 'diff'][:] == [3, 3, 3]
    single = sliceable.TransformDataset(base, 'sum', lambda e: e[0] + e[1])
    assert single.keys == 'sum' and single[2] == 9
    counted = sliceable.TransformDataset(base, lambda e: (e[0], e[1], 0))
    assert counted.keys == (None, None, None)


def test_sliceable_concatenated_dataset():
    a = sliceable.TupleDataset(('x', [0, 1, 2]), ('y', [0, 1, 4]))
    b = sliceable.TupleDataset(('x', [3, 4]), ('y', [9, 16]))
    d = sliceable.ConcatenatedDataset(a, b)
    assert len(d) == 5 and d.keys == ('x', 'y')
    assert d.slice[:, 'x'][:] == [0, 1, 2, 3, 4]
    assert d[3] == (3, 9) and d[-1] == (4, 16)
    with pytest.raises(ValueError, match='same keys'):
        sliceable.ConcatenatedDataset(a, sliceable.TupleDataset(('z', [1])))

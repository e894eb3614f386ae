import gc
import itertools
import random

import pytest

from vision.utils import unzip


def _pairs():
    return zip(range(10), 'abcdefghij')


def test_sequential():
    ints, strs = unzip(_pairs())
    assert list(ints) == list(range(10))
    assert list(strs) == list('abcdefghij')


def test_parallel():
    ints, strs = unzip(_pairs())
    assert list(zip(ints, strs)) == list(_pairs())


def test_random_interleaving():
    rng = random.Random(0)
    ints, strs = unzip(_pairs())
    got_ints, got_strs = [], []
    for _ in range(15):
        if rng.randrange(2):
            got_ints.append(next(ints))
        else:
            got_strs.append(next(strs))
    got_ints.extend(ints)
    got_strs.extend(strs)
    assert got_ints == list(range(10))
    assert got_strs == list('abcdefghij')


def _infinite(drawn=None):
    for i in itertools.count():
        if drawn is not None:
            drawn.append(i)
        yield i, i + 1, i * i


def test_infinite_sequential():
    iters = unzip(_infinite())
    assert len(iters) == 3
    assert [next(iters[0]) for _ in range(10)] == list(range(10))
    assert [next(iters[1]) for _ in range(10)] == list(range(1, 11))
    assert [next(iters[2]) for _ in range(10)] == [i * i for i in range(10)]


def test_lazy():
    drawn = []
    first, second, _ = unzip(_infinite(drawn))
    assert drawn == [0]
    next(first)
    assert drawn == [0]
    next(first)
    next(first)
    assert drawn == [0, 1, 2]
    assert [next(second) for _ in range(3)] == [1, 2, 3]
    assert drawn == [0, 1, 2]


class _Tracked:
    def __init__(self, released, id_):
        self.released, self.id_ = released, id_

    def __del__(self):
        self.released.add(self.id_)


def _tracked(released):
    for i in itertools.count():
        yield i, _Tracked(released, i)


def test_deleted_iterator_releases_its_values():
    released = set()
    ids, objs = unzip(_tracked(released))
    del objs
    gc.collect()
    for _ in range(20):
        next(ids)
    assert released == set(range(20))


def test_live_iterator_keeps_its_values():
    released = set()
    ids, objs = unzip(_tracked(released))
    for _ in range(20):
        next(ids)
    assert released == set()
    assert [o.id_ for o in itertools.islice(objs, 20)] == list(range(20))


def test_empty():
    assert unzip([]) == ()
    assert unzip(iter([])) == ()


def test_empty_tuples():
    assert unzip([(), ()]) == ()


def test_length_mismatch():
    first, _ = unzip([(0, 'a'), (1, 'b', 'extra')])
    assert next(first) == 0
    with pytest.raises(ValueError, match='unzip: every tuple must have 2 values, as the first '
                                         'one, but got a tuple of 3'):
        next(first)

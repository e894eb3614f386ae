"""Chainer's iteration semantics, the same for every iterator kind."""

import numpy
import pytest

from framework.iterators import MultiprocessIterator, ShuffleOrderSampler


def _values(batch):
    return [int(x) for x in batch]


def test_no_shuffle_repeat_epoch_detail(make_iterator):
    it = make_iterator(list(range(6)), 2, shuffle=False)
    assert it.epoch == 0
    assert it.epoch_detail == 0
    assert it.previous_epoch_detail is None
    for epoch in range(3):
        for i in range(3):
            assert _values(next(it)) == [2 * i, 2 * i + 1]
            assert it.epoch == epoch + (i == 2)
            assert it.is_new_epoch == (i == 2)
            assert it.epoch_detail == pytest.approx(epoch + (i + 1) / 3)
            assert it.previous_epoch_detail == pytest.approx(epoch + i / 3)


def test_batch_crossing_the_end_of_an_epoch(make_iterator):
    it = make_iterator(list(range(5)), 3, shuffle=False)
    assert _values(next(it)) == [0, 1, 2]
    assert not it.is_new_epoch
    assert _values(next(it)) == [3, 4, 0]
    assert it.is_new_epoch
    assert it.epoch == 1
    assert it.epoch_detail == pytest.approx(1.2)
    assert it.previous_epoch_detail == pytest.approx(0.6)
    assert _values(next(it)) == [1, 2, 3]
    assert not it.is_new_epoch
    assert it.epoch_detail == pytest.approx(1.8)


def test_no_repeat_ends_with_a_partial_batch(make_iterator):
    it = make_iterator(list(range(5)), 2, repeat=False, shuffle=False)
    assert _values(next(it)) == [0, 1]
    assert _values(next(it)) == [2, 3]
    assert _values(next(it)) == [4]
    assert it.is_new_epoch
    assert it.epoch == 1
    assert it.epoch_detail == pytest.approx(1.0)
    assert it.previous_epoch_detail == pytest.approx(0.8)
    for _ in range(2):
        with pytest.raises(StopIteration):
            next(it)
    assert it.epoch_detail == pytest.approx(1.0)


def test_no_repeat_iterates_once_with_for(make_iterator):
    it = make_iterator(list(range(7)), 3, repeat=False, shuffle=False)
    assert [_values(b) for b in it] == [[0, 1, 2], [3, 4, 5], [6]]


def test_reset_starts_again(make_iterator):
    it = make_iterator(list(range(5)), 2, repeat=False, shuffle=False)
    first = [_values(b) for b in it]
    it.reset()
    assert it.epoch == 0 and it.current_position == 0
    assert it.previous_epoch_detail is None
    assert [_values(b) for b in it] == first


def test_shuffle_visits_every_example_once_per_epoch(make_iterator):
    it = make_iterator(list(range(10)), 5, seed=0)
    for _ in range(3):
        seen = _values(next(it)) + _values(next(it))
        assert sorted(seen) == list(range(10))
        assert it.is_new_epoch


def test_shuffle_orders_are_reproducible_from_the_seed(make_iterator):
    def draw(seed):
        it = make_iterator(list(range(7)), 3, seed=seed)
        return [_values(next(it)) for _ in range(8)]

    assert draw(3) == draw(3)
    assert draw(3) != draw(4)
    # The orders are those of a NumPy generator seeded with the seed.
    random = numpy.random.RandomState(3)
    expected = numpy.concatenate([random.permutation(7) for _ in range(4)])[:24]
    assert sum(draw(3), []) == expected.tolist()


def test_shuffle_none_with_global_seed_is_reproducible(make_iterator):
    numpy.random.seed(11)
    a = [_values(next(make_iterator(list(range(9)), 9))) for _ in range(2)]
    numpy.random.seed(11)
    b = [_values(next(make_iterator(list(range(9)), 9))) for _ in range(2)]
    assert a == b


def test_custom_order_sampler(make_iterator):
    calls = []

    def reverse(order, position):
        calls.append(position)
        return numpy.arange(len(order))[::-1]

    it = make_iterator(list(range(4)), 3, order_sampler=reverse)
    assert _values(next(it)) == [3, 2, 1]
    assert _values(next(it)) == [0, 3, 2]
    assert calls[:2] == [0, 3]


def test_order_sampler_of_the_wrong_length(make_iterator):
    lengths = iter([4, 3])
    it = make_iterator(list(range(4)), 3,
                       order_sampler=lambda order, position: numpy.arange(next(lengths)))
    with pytest.raises(ValueError, match='order sampler returned an order of length'):
        for _ in range(3):
            next(it)


def test_bad_arguments(make_iterator):
    with pytest.raises(ValueError, match='shuffle must be None when an order_sampler'):
        make_iterator(list(range(4)), 2, shuffle=True, order_sampler=ShuffleOrderSampler())
    with pytest.raises(ValueError, match='seed cannot be given together with an order_sampler'):
        make_iterator(list(range(4)), 2, seed=0, order_sampler=ShuffleOrderSampler())
    with pytest.raises(ValueError, match='batch_size must be positive, but got 0'):
        make_iterator(list(range(4)), 0)
    with pytest.raises(TypeError, match='batch_size must be an int, but got float'):
        make_iterator(list(range(4)), 2.0)
    with pytest.raises(ValueError, match='cannot repeat over an empty dataset'):
        make_iterator([], 2)


def test_empty_dataset_without_repeat(make_iterator):
    it = make_iterator([], 2, repeat=False)
    assert list(it) == []


def test_examples_of_any_structure(make_iterator):
    dataset = [(numpy.full((2, 3), i, numpy.float32), {'label': numpy.int32(i), 'name': str(i)})
               for i in range(5)]
    it = make_iterator(dataset, 2, repeat=False, shuffle=False)
    batches = list(it)
    assert [len(b) for b in batches] == [2, 2, 1]
    for i, (img, extra) in enumerate(sum(batches, [])):
        numpy.testing.assert_array_equal(img, numpy.full((2, 3), i, numpy.float32))
        assert img.dtype == numpy.float32
        assert extra == {'label': i, 'name': str(i)}


def test_context_manager_finalizes(make_iterator):
    with make_iterator(list(range(4)), 2) as it:
        next(it)
    it.finalize()  # a second finalize is a no-op


def test_reset_after_finalize(make_iterator):
    # As in Chainer: a MultithreadIterator starts again; a MultiprocessIterator cannot.
    it = make_iterator(list(range(4)), 2, repeat=False, shuffle=False)
    next(it)
    it.finalize()
    if make_iterator.kind is MultiprocessIterator:
        with pytest.raises(NotImplementedError, match='finalized'):
            it.reset()
        return
    it.reset()
    assert [_values(b) for b in it] == [[0, 1], [2, 3]]

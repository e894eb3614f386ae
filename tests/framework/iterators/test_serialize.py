"""Resuming from a snapshot continues with the batches the original would have given."""

import numpy
import pytest

from framework.iterators import MultiprocessIterator, MultithreadIterator, SerialIterator
from framework.serializers import (
    Deserializer,
    DictionarySerializer,
    NpzDeserializer,
    Serializer,
    load_npz,
    save_npz,
)


def _save(iterator):
    serializer = DictionarySerializer()
    serializer.save(iterator)
    return serializer.target


def _load(iterator, target):
    NpzDeserializer(target).load(iterator)


def _draw(iterator, n):
    return [[int(x) for x in next(iterator)] for _ in range(n)]


@pytest.mark.parametrize('shuffle', [True, False])
@pytest.mark.parametrize('consumed', [0, 1, 3, 4])
def test_round_trip_mid_epoch(make_iterator, shuffle, consumed):
    dataset = list(range(10))
    original = make_iterator(dataset, 4, shuffle=shuffle, seed=1 if shuffle else None)
    _draw(original, consumed)
    snapshot = _save(original)
    expected = _draw(original, 8)
    details = original.epoch_detail

    resumed = make_iterator(dataset, 4, shuffle=shuffle, seed=99 if shuffle else None)
    _draw(resumed, 2)  # its own position and orders are overwritten
    _load(resumed, snapshot)
    assert resumed.epoch_detail == pytest.approx(consumed * 0.4)
    assert resumed.previous_epoch_detail == (
        None if consumed == 0 else pytest.approx((consumed - 1) * 0.4))
    assert _draw(resumed, 8) == expected
    assert resumed.epoch_detail == pytest.approx(details)


def test_snapshot_keys_are_chainers_plus_the_sampler_state(make_iterator):
    it = make_iterator(list(range(6)), 4, seed=0)
    next(it)
    target = _save(it)
    assert {'current_position', 'epoch', 'is_new_epoch', 'order',
            'previous_epoch_detail'} <= set(target)
    assert target['current_position'] == 4
    assert target['epoch'] == 0
    assert target['previous_epoch_detail'] == 0.0
    assert any(k.startswith('order_sampler/') for k in target)
    unshuffled = make_iterator(list(range(6)), 4, shuffle=False)
    assert 'order' not in _save(unshuffled)


def test_snapshot_is_what_the_consumer_has_seen(make_iterator):
    # With many batches loaded ahead, the prefetchers have drawn the orders of later epochs;
    # the snapshot holds the position and the generator of the batch last returned.
    extra = {} if make_iterator.kind is SerialIterator else {'n_prefetch': 5}
    dataset = list(range(5))
    original = make_iterator(dataset, 2, seed=7, **extra)
    _draw(original, 2)
    snapshot = _save(original)
    serial = SerialIterator(dataset, 2, seed=7)
    _draw(serial, 2)
    assert {k: numpy.asarray(v).tolist() for k, v in snapshot.items()} == \
        {k: numpy.asarray(v).tolist() for k, v in _save(serial).items()}


def test_resume_across_kinds_through_a_file(make_iterator, tmp_path):
    dataset = list(range(9))
    original = SerialIterator(dataset, 4, seed=2)
    _draw(original, 5)
    save_npz(tmp_path / 'it.npz', original)
    expected = _draw(original, 7)
    resumed = make_iterator(dataset, 4, seed=0)
    load_npz(tmp_path / 'it.npz', resumed)
    assert _draw(resumed, 7) == expected


def test_snapshot_without_the_sampler_state_loads(make_iterator):
    # A snapshot of Chainer's keys only (e.g. written by Chainer) restores the position and
    # the order of the current epoch.
    original = SerialIterator(list(range(8)), 3, seed=4)
    _draw(original, 1)
    target = {k: v for k, v in _save(original).items() if not k.startswith('order_sampler/')}
    expected = _draw(original, 2)
    resumed = make_iterator(list(range(8)), 3, seed=5)
    _load(resumed, target)
    assert _draw(resumed, 1) == expected[:1]
    assert _draw(resumed, 1)[0][:2] == expected[1][:2]


def test_reset_after_resume_draws_a_new_order(make_iterator):
    it = make_iterator(list(range(50)), 50, seed=0)
    first = _draw(it, 1)
    it.reset()
    assert _draw(it, 1) != first


@pytest.mark.parametrize('cls', [MultithreadIterator, MultiprocessIterator])
def test_prefetching_iterators_restart_after_loading(cls):
    with SerialIterator(list(range(6)), 4, seed=3) as serial, \
            cls(list(range(6)), 4, seed=3, n_prefetch=3) as it:
        _draw(it, 3)
        _draw(serial, 1)
        _load(it, _save(serial))
        assert _draw(it, 6) == _draw(serial, 6)


class _FlatSerializer(Serializer):
    """A serializer without a hierarchy, as the test doubles of Chainer's iterator tests."""

    def __init__(self, target):
        self.target = target

    def __getitem__(self, key):
        raise NotImplementedError

    def __call__(self, key, value):
        self.target[key] = value
        return value


class _FlatDeserializer(Deserializer):
    def __init__(self, target):
        self.target = target

    def __getitem__(self, key):
        raise NotImplementedError

    def __call__(self, key, value):
        if value is None:
            return self.target[key]
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, self.target[key])
            return value
        return type(value)(numpy.asarray(self.target[key]))


def test_serializers_without_a_hierarchy(make_iterator):
    it = make_iterator(list(range(6)), 4, seed=0)
    next(it)
    target = {}
    it.serialize(_FlatSerializer(target))
    assert set(target) == {'current_position', 'epoch', 'is_new_epoch', 'order',
                           'previous_epoch_detail'}
    expected = _draw(it, 1)
    resumed = make_iterator(list(range(6)), 4, seed=1)
    resumed.serialize(_FlatDeserializer(target))
    assert resumed.current_position == 4 and resumed.previous_epoch_detail == 0.0
    assert _draw(resumed, 1)[0][:2] == expected[0][:2]


@pytest.mark.parametrize('shuffle', [True, False])
def test_loads_chainers_older_layout(make_iterator, shuffle):
    # Chainer's MultithreadIterator (and SerialIterator before v4) save the order as '_order';
    # snapshots before v2.1 have no previous_epoch_detail, which is then guessed as Chainer does.
    dataset = list(range(6))
    original = make_iterator(dataset, 2, shuffle=shuffle, seed=1 if shuffle else None)
    _draw(original, 2)
    snapshot = {key: value for key, value in _save(original).items()
                if key != 'previous_epoch_detail'}
    if shuffle:
        snapshot['_order'] = snapshot.pop('order')
    expected = _draw(original, 3)

    resumed = make_iterator(dataset, 2, shuffle=shuffle, seed=2 if shuffle else None)
    resumed.serialize(NpzDeserializer(snapshot))
    assert resumed.epoch_detail == pytest.approx(4 / 6)
    assert resumed.previous_epoch_detail == pytest.approx(2 / 6)
    assert _draw(resumed, 3) == expected


def test_guessed_previous_epoch_detail_at_the_start_is_none(make_iterator):
    it = make_iterator(list(range(6)), 2, shuffle=False)
    snapshot = {key: value for key, value in _save(it).items()
                if key != 'previous_epoch_detail'}
    it.serialize(NpzDeserializer(snapshot))
    assert it.previous_epoch_detail is None


def test_load_npz_reads_chainers_multithread_layout(make_iterator, tmp_path):
    # load_npz collects missing keys to report them all; '_order' must still be found.
    original = make_iterator(list(range(6)), 2, seed=1)
    _draw(original, 1)
    snapshot = _save(original)
    snapshot['_order'] = snapshot.pop('order')
    del snapshot['previous_epoch_detail']
    path = tmp_path / 'snapshot.npz'
    numpy.savez(path, **snapshot)
    expected = _draw(original, 4)

    resumed = make_iterator(list(range(6)), 2, seed=2)
    load_npz(str(path), resumed)
    assert resumed.previous_epoch_detail == pytest.approx(0.)
    assert _draw(resumed, 4) == expected


def test_order_of_another_shape_is_refused(make_iterator):
    it = make_iterator(list(range(6)), 2, seed=1)
    snapshot = _save(it)
    snapshot['order'] = numpy.arange(5)
    with pytest.raises(ValueError, match='order of the snapshot has shape'):
        make_iterator(list(range(6)), 2, seed=1).serialize(NpzDeserializer(snapshot))

"""What every iterator of this package shares: the position in the epoch and its bookkeeping.

The position is an :class:`IteratorState`; :func:`advance` computes the indices of the next
batch and the state after it, as Chainer's iterators do (the same batches, the same
``epoch_detail`` values, the same partial batches at the end of an epoch).
"""

from __future__ import annotations

import collections
import numbers

import numpy

from framework.dataset.iterator import Iterator
from framework.iterators.order_samplers import ShuffleOrderSampler
from framework.serializers.serializer import Deserializer

IteratorState = collections.namedtuple(
    'IteratorState', ('current_position', 'epoch', 'is_new_epoch', 'order'))


def advance(state: IteratorState, batch_size: int, repeat: bool, order_sampler,
            dataset_len: int) -> tuple[IteratorState, numpy.ndarray | None]:
    """The indices of the next batch and the state after it.

    A batch that crosses the end of an epoch takes the rest of the epoch and, when repeating,
    the beginning of the next one (whose order the sampler draws then); without repeat it
    stops at the end, and the call after the first epoch returns ``(state, None)``.

    Args:
        state: the position before the batch.
        batch_size: the number of examples of a batch.
        repeat: whether the iteration goes on after the first epoch.
        order_sampler: the sampler called at each end of epoch (unused when the order is None).
        dataset_len: the length of the dataset.

    Returns:
        ``(state, indices)``: the new state and a 1-D ``intp`` array of indices, or
        ``(state, None)`` when the iteration is over.
    """
    position, epoch, _, order = state
    if not repeat and epoch > 0:
        return state, None
    n = dataset_len if order is None else len(order)
    if n == 0:
        if repeat:
            raise ValueError('iterator: cannot repeat over an empty dataset')
        return IteratorState(0, 1, True, order), None
    end = position + batch_size if repeat else min(position + batch_size, n)
    parts = []
    is_new_epoch = False
    while end >= n:
        parts.append(_take(order, position, n))
        if order is not None:
            new_order = order_sampler(order, position)
            if len(new_order) != len(order):
                raise ValueError('iterator: the order sampler returned an order of length '
                                 f'{len(new_order)}, but the previous order has length '
                                 f'{len(order)}')
            order = new_order
        position = 0
        end = end - n if repeat else 0
        epoch += 1
        is_new_epoch = True
    parts.append(_take(order, position, end))
    return IteratorState(end, epoch, is_new_epoch, order), numpy.concatenate(parts)


def examples_drawn(state: IteratorState, dataset_len: int) -> int:
    """The number of examples an iteration has drawn on reaching ``state``, over all epochs."""
    n = dataset_len if state.order is None else len(state.order)
    return state.epoch * n + state.current_position


def _take(order, begin, end):
    if order is None:
        return numpy.arange(begin, end, dtype=numpy.intp)
    return numpy.asarray(order[begin:end], dtype=numpy.intp)


def _serialize_order(who: str, serializer, order: numpy.ndarray) -> numpy.ndarray:
    """Serializes the order of the epoch under ``order``, or ``_order`` where a snapshot of an
    older layout has it there."""
    try:
        loaded = _serialize_optional(serializer, 'order', order)
    except KeyError as error:
        try:
            loaded = _serialize_optional(serializer, '_order', order)
        except KeyError:
            raise error from None
    if loaded is None:
        return order
    loaded = numpy.asarray(loaded)
    if loaded.shape != order.shape:
        raise ValueError(f'{who}: the order of the snapshot has shape {loaded.shape}, but this '
                         f'iterator draws orders of shape {order.shape}')
    return loaded


def _serialize_optional(serializer, key: str, value):
    """``serializer(key, value)`` for a value that older snapshots may lack.

    A deserializer is asked with None: a missing key then raises :class:`KeyError` at once
    (``NpzDeserializer.load`` would otherwise collect it and fail at the end), and None comes
    back where it leaves the value as it is (a non-strict one).
    """
    if isinstance(serializer, Deserializer):
        return serializer(key, None)
    return serializer(key, value)


def make_order_sampler(who: str, shuffle, order_sampler, seed):
    """The order sampler that ``shuffle``, ``order_sampler`` and ``seed`` ask for (or None).

    As in Chainer, ``shuffle=None`` with no sampler shuffles, and a sampler given together with
    ``shuffle`` is an error; ``seed`` seeds the shuffling (ignored when ``shuffle`` is False).
    """
    if shuffle is not None and order_sampler is not None:
        raise ValueError(f'{who}: shuffle must be None when an order_sampler is given, but got '
                         f'shuffle={shuffle!r}; leave shuffle out to use the order sampler')
    if seed is not None and order_sampler is not None:
        raise ValueError(f'{who}: seed cannot be given together with an order_sampler; seed '
                         'the generator of the order sampler instead')
    if order_sampler is not None:
        if not callable(order_sampler):
            raise TypeError(f'{who}: order_sampler must be callable, but got '
                            f'{type(order_sampler).__name__}')
        return order_sampler
    if shuffle is None or shuffle:
        random_state = None if seed is None else numpy.random.RandomState(seed)
        return ShuffleOrderSampler(random_state)
    return None


def check_positive_int(who: str, name: str, value) -> int:
    """``value`` as an int, or a TypeError/ValueError naming ``who`` and ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f'{who}: {name} must be an int, but got {type(value).__name__}')
    if value <= 0:
        raise ValueError(f'{who}: {name} must be positive, but got {value}')
    return int(value)


class BatchIterator(Iterator):
    """An iterator over a dataset in batches of indices drawn by :func:`advance`.

    Subclasses fetch the examples. The state kept here is the position that the consumer has
    reached: what :meth:`serialize` saves and what ``epoch_detail`` reports.
    """

    _who = 'iterator'

    def __init__(self, dataset, batch_size: int, repeat: bool = True, shuffle=None,
                 order_sampler=None, seed: int | None = None):
        self.dataset = dataset
        self.batch_size = check_positive_int(self._who, 'batch_size', batch_size)
        self._repeat = bool(repeat)
        self._shuffle = shuffle
        self.order_sampler = make_order_sampler(self._who, shuffle, order_sampler, seed)
        if self._repeat and len(dataset) == 0:
            raise ValueError(f'{self._who}: cannot repeat over an empty dataset')
        self._reset_state()

    def _reset_state(self) -> None:
        if self.order_sampler is not None:
            order = self.order_sampler(numpy.arange(len(self.dataset)), 0)
        else:
            order = None
        self._state = IteratorState(0, 0, False, order)
        self._previous_epoch_detail = -1.

    def reset(self) -> None:
        """Goes back to the beginning of the first epoch (with a new order when shuffling)."""
        self._reset_state()

    @property
    def repeat(self) -> bool:
        return self._repeat

    @property
    def current_position(self) -> int:
        return self._state.current_position

    @property
    def epoch(self) -> int:
        return self._state.epoch

    @property
    def is_new_epoch(self) -> bool:
        return self._state.is_new_epoch

    @property
    def epoch_detail(self) -> float:
        size = self._epoch_size
        if size == 0:
            return float(self.epoch)
        return self.epoch + self.current_position / size

    @property
    def previous_epoch_detail(self) -> float | None:
        # -1 stands for None internally, since some serializers cannot store None.
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    @property
    def _epoch_size(self) -> int:
        order = self._state.order
        return len(self.dataset) if order is None else len(order)

    def _guess_previous_epoch_detail(self) -> float:
        """``previous_epoch_detail`` one batch back from the position (-1 at the start)."""
        if self.epoch_detail <= 0:
            return -1.
        return max(self.epoch + (self.current_position - self.batch_size) / self._epoch_size,
                   0.)

    def serialize(self, serializer) -> None:
        """Saves or restores the position, the order of the epoch and the sampler's state.

        The keys are Chainer's (``current_position``, ``epoch``, ``is_new_epoch``, ``order``,
        ``previous_epoch_detail``) plus ``order_sampler/...`` for the state of the sampler, so
        that a resumed run draws the same orders in the later epochs. Snapshots of Chainer's
        older layouts load too: the order under ``_order`` (Chainer's ``MultithreadIterator``
        and old ``SerialIterator``), no ``previous_epoch_detail`` (guessed as Chainer does).
        """
        position = serializer('current_position', self.current_position)
        epoch = serializer('epoch', self.epoch)
        is_new_epoch = serializer('is_new_epoch', self.is_new_epoch)
        order = self._state.order
        if order is not None:
            order = _serialize_order(self._who, serializer, numpy.array(order))
        self._state = IteratorState(int(position), int(epoch), bool(is_new_epoch), order)
        try:
            previous = _serialize_optional(
                serializer, 'previous_epoch_detail', self._previous_epoch_detail)
        except KeyError:
            # Older Chainer snapshots have none: guess it from the position, as Chainer does.
            previous = self._guess_previous_epoch_detail()
        # None (some old snapshots hold it; a non-strict deserializer lacking the key returns
        # it) stands for -1 here: no batch yet.
        self._previous_epoch_detail = -1. if previous is None else float(previous)
        sampler_serialize = getattr(self.order_sampler, 'serialize', None)
        if sampler_serialize is not None:
            try:
                child = serializer['order_sampler']
            except NotImplementedError:
                # A serializer without a hierarchy (a test double, say): Chainer's keys only.
                return
            sampler_serialize(child)

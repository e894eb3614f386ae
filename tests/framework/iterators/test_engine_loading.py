"""MultithreadIterator reading its batches through the dependency engine."""

import threading
import time
import traceback

import pytest

from framework.engine import NaiveEngine, ThreadedEngine
from framework.iterators import MultithreadIterator, SerialIterator
from framework.serializers import DictionarySerializer, NpzDeserializer


@pytest.fixture(params=['naive', 'threaded'])
def engine(request):
    eng = NaiveEngine() if request.param == 'naive' else ThreadedEngine(num_cpu_workers=4)
    yield eng
    eng.shutdown()  # raises an error the iterator left in the engine


@pytest.fixture
def threaded():
    eng = ThreadedEngine(num_cpu_workers=4)
    yield eng
    eng.shutdown()


class _Recording:
    """Records the order of the reads, the threads they ran in and how many overlapped; the
    reads of the indices in ``gated`` wait for ``gate``, that of ``bad`` raises."""

    def __init__(self, n, gated=(), bad=None, delay=0.0):
        self.n, self.gated, self.bad, self.delay = n, set(gated), bad, delay
        self.gate = threading.Event()
        self.reads, self.threads = [], set()
        self.active = self.max_active = 0
        self._lock = threading.Lock()

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        with self._lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)
            self.threads.add(threading.current_thread().name)
        try:
            if i in self.gated:
                self.gate.wait(5)
            time.sleep(self.delay)
            if i == self.bad:
                raise ValueError(f'cannot read example {i}')
            self.reads.append(int(i))
            return int(i)
        finally:
            with self._lock:
                self.active -= 1


def _state(iterator):
    serializer = DictionarySerializer()
    serializer.save(iterator)
    return {key: value.tolist() for key, value in serializer.target.items()}


def test_batches_and_saved_states_are_the_serial_iterators(engine):
    serial = SerialIterator(list(range(10)), 4, seed=3)
    with MultithreadIterator(list(range(10)), 4, seed=3, n_prefetch=3, engine=engine) as it:
        for _ in range(8):  # three epochs and a bit
            assert next(it) == next(serial)
            assert _state(it) == _state(serial)
            assert it.epoch_detail == serial.epoch_detail


def test_resumption_mid_epoch_is_exact(engine):
    with MultithreadIterator(list(range(10)), 4, seed=5, n_prefetch=2, engine=engine) as it:
        for _ in range(4):
            next(it)
        saved = DictionarySerializer()
        saved.save(it)
        expected = [next(it) for _ in range(6)]
    with MultithreadIterator(list(range(10)), 4, seed=0, n_prefetch=2, engine=engine) as it:
        next(it)  # its position and orders are overwritten
        NpzDeserializer(saved.target).load(it)
        assert [next(it) for _ in range(6)] == expected


def test_next_batch_is_read_while_the_consumer_holds_this_one(threaded):
    dataset = _Recording(8, gated={4})
    with MultithreadIterator(dataset, 4, shuffle=False, engine=threaded) as it:
        assert next(it) == [0, 1, 2, 3]  # returned while the read of the next batch waits
        assert 4 not in dataset.reads
        dataset.gate.set()
        assert next(it) == [4, 5, 6, 7]
    assert all(name.startswith('engine-cpu') for name in dataset.threads)


def test_batches_are_read_one_at_a_time_in_order(threaded):
    dataset = _Recording(12, delay=0.002)
    with MultithreadIterator(dataset, 3, seed=1, n_prefetch=4, engine=threaded) as it:
        batches = [next(it) for _ in range(8)]
    assert dataset.reads[:24] == sum(batches, [])
    assert dataset.max_active == 1


def test_error_surfaces_at_next_with_its_traceback(engine):
    with MultithreadIterator(_Recording(8, bad=5), 4, shuffle=False, engine=engine) as it:
        assert next(it) == [0, 1, 2, 3]
        with pytest.raises(ValueError, match='cannot read example 5') as info:
            next(it)
        text = ''.join(traceback.format_exception(info.value))
        assert '__getitem__' in text and 'raise ValueError' in text
        # The failed batch was not consumed: the position is unchanged and a retry fails again.
        assert it.current_position == 4
        with pytest.raises(ValueError):
            next(it)
    engine.wait_for_all()


def test_a_batch_given_up_leaves_no_error_in_the_engine(engine):
    # The naive engine reads the failing batch at once, the threaded one most likely before
    # the reset.
    with MultithreadIterator(_Recording(8, bad=5), 4, shuffle=False, engine=engine) as it:
        next(it)  # the failing batch is read ahead...
        it.reset()  # ...and given up
        assert next(it) == [0, 1, 2, 3]
        it.reset()
    engine.wait_for_all()


def test_finalize_waits_for_the_batch_being_read(threaded):
    dataset = _Recording(8, gated={5})
    it = MultithreadIterator(dataset, 4, shuffle=False, engine=threaded)
    next(it)
    threading.Timer(0.05, dataset.gate.set).start()
    it.finalize()
    assert dataset.active == 0 and dataset.reads == list(range(8))
    with pytest.raises(RuntimeError, match='finalized'):
        next(it)


def test_bad_engine_arguments(engine):
    with pytest.raises(TypeError, match='engine must be an Engine or None, but got str'):
        MultithreadIterator(list(range(4)), 2, engine='threaded')
    with pytest.raises(ValueError, match='n_threads must be 1 when an engine is given.*got 2'):
        MultithreadIterator(list(range(4)), 2, n_threads=2, engine=engine)

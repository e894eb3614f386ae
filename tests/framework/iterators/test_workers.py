"""Workers of the prefetching iterators: errors, shutdown, shared memory, timeouts."""

import gc
import multiprocessing
import os
import signal
import traceback
import warnings

import numpy
import pytest

from framework.iterators import MultiprocessIterator, MultithreadIterator


@pytest.fixture(autouse=True)
def _no_leftover_processes():
    before = set(multiprocessing.active_children())
    yield
    gc.collect()
    assert set(multiprocessing.active_children()) <= before


class _Failing:
    """Raises for one index."""

    def __init__(self, n, bad, error=ValueError):
        self.n, self.bad, self.error = n, bad, error

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i == self.bad:
            raise self.error(f'cannot read example {i}')
        return numpy.full(3, i, numpy.float32)


class _Unpicklable(Exception):
    def __init__(self, message, handle):
        super().__init__(message)
        self.handle = handle

    def __reduce__(self):
        raise TypeError('cannot pickle')


@pytest.mark.parametrize('cls,extra', [(MultithreadIterator, {'n_threads': 2}),
                                       (MultiprocessIterator, {'n_processes': 2})])
def test_worker_error_surfaces_with_its_traceback(cls, extra):
    with cls(_Failing(8, 5), 4, shuffle=False, **extra) as it:
        assert [int(x[0]) for x in next(it)] == [0, 1, 2, 3]
        with pytest.raises(ValueError, match='cannot read example 5') as info:
            next(it)
        text = ''.join(traceback.format_exception(info.value))
        assert '__getitem__' in text and 'raise self.error' in text
        # The failed batch was not consumed: the position is unchanged and a retry fails again.
        assert it.current_position == 4
        with pytest.raises(ValueError):
            next(it)


def test_worker_error_names_the_example():
    with MultiprocessIterator(_Failing(8, 6), 4, shuffle=False, n_processes=2) as it:
        next(it)
        with pytest.raises(ValueError) as info:
            next(it)
    assert 'reading example 6' in ''.join(info.value.__notes__)


def test_unpicklable_worker_error_is_reported():
    class Dataset(_Failing):
        def __getitem__(self, i):
            if i == 1:
                raise _Unpicklable('a socket went wrong', object())
            return i

    with MultiprocessIterator(Dataset(4, 1), 2, shuffle=False, n_processes=1) as it:
        with pytest.raises(RuntimeError, match='_Unpicklable: a socket went wrong'):
            next(it)


def test_dead_worker_is_reported_and_workers_restart():
    class Dataset:
        kill = True

        def __len__(self):
            return 6

        def __getitem__(self, i):
            if i == 4 and self.kill:
                os.kill(os.getpid(), signal.SIGKILL)
            return i

    dataset = Dataset()
    batches = []
    with MultiprocessIterator(dataset, 2, shuffle=False, n_processes=2) as it:
        with pytest.raises(RuntimeError, match='was killed by signal 9'):
            for _ in range(3):
                batches.append(next(it))
        dataset.kill = False  # the restarted workers fork from the main process again
        # The iteration goes on from the last batch returned.
        batches += [next(it) for _ in range(3)]
    assert batches == [[0, 1], [2, 3], [4, 5], [0, 1], [2, 3], [4, 5]][:len(batches)]


def test_finalize_stops_the_workers():
    it = MultiprocessIterator(list(range(10)), 2, n_processes=3, n_prefetch=3)
    before = set(multiprocessing.active_children())
    next(it)
    assert len(set(multiprocessing.active_children()) - before) == 3
    it.finalize()
    assert set(multiprocessing.active_children()) <= before
    with pytest.raises(RuntimeError, match='finalized'):
        next(it)


def test_garbage_collection_stops_the_workers():
    before = set(multiprocessing.active_children())
    it = MultiprocessIterator(list(range(10)), 2, n_processes=2)
    next(it)
    del it
    gc.collect()
    assert set(multiprocessing.active_children()) <= before


def test_workers_start_on_the_first_batch():
    before = set(multiprocessing.active_children())
    it = MultiprocessIterator(list(range(10)), 2, n_processes=2)
    assert set(multiprocessing.active_children()) == before
    it.finalize()


def test_arrays_come_through_shared_memory():
    dataset = [(numpy.full((4, 5), i, numpy.float64), numpy.arange(i, dtype=numpy.int32),
                {'n': i, 'mask': numpy.ones(i, bool)}) for i in range(1, 9)]
    with MultiprocessIterator(dataset, 3, shuffle=False, n_processes=2) as it:
        batches = [next(it) for _ in range(6)]
        # The size was measured from the first batch: later ones use shared memory.
        assert it._pool.max_needed >= 4 * 5 * 8
    for i, (a, b, c) in enumerate(sum(batches, [])):
        expected = dataset[i % 8]
        numpy.testing.assert_array_equal(a, expected[0])
        numpy.testing.assert_array_equal(b, expected[1])
        assert b.dtype == numpy.int32 and a.flags.writeable
        numpy.testing.assert_array_equal(c['mask'], expected[2]['mask'])
        assert c['n'] == expected[2]['n']


def test_too_small_shared_mem_warns_and_still_works():
    dataset = [numpy.full(100, i, numpy.float32) for i in range(4)]
    with MultiprocessIterator(dataset, 2, shuffle=False, n_processes=1, shared_mem=16) as it:
        with pytest.warns(UserWarning, match='shared_mem .16 bytes per example. is too small'):
            batch = next(it)
    numpy.testing.assert_array_equal(batch[1], dataset[1])


def test_dataset_timeout_warns_and_keeps_waiting():
    class Slow:
        def __len__(self):
            return 2

        def __getitem__(self, i):
            import time
            time.sleep(0.4)
            return i

    with MultiprocessIterator(Slow(), 2, shuffle=False, n_processes=1,
                              dataset_timeout=0.1) as it:
        with pytest.warns(MultiprocessIterator.TimeoutWarning, match='dataset_timeout'):
            assert next(it) == [0, 1]


def test_maxtasksperchild_replaces_workers():
    with MultiprocessIterator(list(range(8)), 2, shuffle=False, n_processes=2,
                              maxtasksperchild=1) as it:
        batches = [next(it) for _ in range(8)]
    assert batches == [[0, 1], [2, 3], [4, 5], [6, 7]] * 2


def test_workers_draw_different_random_numbers():
    class Random:
        def __len__(self):
            return 8

        def __getitem__(self, i):
            import time
            time.sleep(0.01)
            return os.getpid(), numpy.random.randint(2 ** 31)

    with warnings.catch_warnings():
        warnings.simplefilter('error')
        with MultiprocessIterator(Random(), 8, shuffle=False, n_processes=4) as it:
            batch = next(it)
    by_pid = {}
    for pid, value in batch:
        by_pid.setdefault(pid, []).append(value)
    firsts = [values[0] for values in by_pid.values()]
    assert len(set(firsts)) == len(firsts)


@pytest.mark.parametrize('bad', [0, -1, 1.5])
def test_bad_worker_arguments(bad):
    with pytest.raises((ValueError, TypeError), match='n_processes'):
        MultiprocessIterator(list(range(4)), 2, n_processes=bad)
    with pytest.raises((ValueError, TypeError), match='n_prefetch'):
        MultithreadIterator(list(range(4)), 2, n_prefetch=bad)
    with pytest.raises(ValueError, match='shared_mem'):
        MultiprocessIterator(list(range(4)), 2, shared_mem=-1)


class _Draws:
    """Each example draws from Python's, NumPy's global and framework.random's generators, as
    random transforms do."""

    def __len__(self):
        return 12

    def __getitem__(self, i):
        import random

        from framework import random as framework_random
        return (i, random.random(), numpy.random.randint(2 ** 31),
                framework_random.get_random_state().randint(2 ** 31))


def _draws(**kwargs):
    with MultiprocessIterator(_Draws(), 5, **kwargs) as it:
        return [next(it) for _ in range(7)]  # three epochs, across their boundaries


def test_seeded_workers_draw_the_same_whatever_the_workers():
    first = _draws(n_processes=2, seed=3)
    # Which worker reads which example varies from run to run: the draws do not.
    assert _draws(n_processes=2, seed=3) == first
    assert _draws(n_processes=1, seed=3) == first
    assert _draws(n_processes=3, seed=3) == first
    # Every example of every epoch draws anew.
    examples = [example for batch in first for example in batch]
    assert len({example[1:] for example in examples}) == len(examples)
    assert _draws(n_processes=2, seed=4) != first
    assert _draws(n_processes=2) != _draws(n_processes=2)

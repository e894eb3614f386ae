"""Fixtures of the iterator tests: every iterator kind, made and finalized."""

import multiprocessing

import pytest

from framework.engine import NaiveEngine, ThreadedEngine
from framework.iterators import MultiprocessIterator, MultithreadIterator, SerialIterator

# Each kind: the class, its extra arguments, and the engine it reads through (if any).
_KINDS = {
    'serial': (SerialIterator, {}, None),
    'multithread': (MultithreadIterator, {'n_threads': 2}, None),
    'engine-naive': (MultithreadIterator, {}, NaiveEngine),
    'engine-threaded': (MultithreadIterator, {}, lambda: ThreadedEngine(num_cpu_workers=2)),
    'multiprocess': (MultiprocessIterator, {'n_processes': 2}, None),
}


@pytest.fixture(params=list(_KINDS))
def make_iterator(request):
    """``make_iterator(dataset, batch_size, **kwargs)``: an iterator of the kind under test,
    finalized after the test (which then checks that no worker process is left). The
    ``engine-*`` kinds are MultithreadIterators reading through a fresh engine of that kind."""
    cls, extra, make_engine = _KINDS[request.param]
    engine = None if make_engine is None else make_engine()
    if engine is not None:
        extra = {**extra, 'engine': engine}
    made = []
    before = set(multiprocessing.active_children())

    def make(dataset, batch_size, **kwargs):
        iterator = cls(dataset, batch_size, **extra, **kwargs)
        made.append(iterator)
        return iterator

    make.kind = cls
    yield make
    for iterator in made:
        iterator.finalize()
    if engine is not None:
        engine.shutdown()
    assert set(multiprocessing.active_children()) <= before

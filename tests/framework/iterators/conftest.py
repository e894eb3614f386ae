"""Fixtures of the iterator tests: every iterator kind, made and finalized."""

import multiprocessing

import pytest

from framework.iterators import MultiprocessIterator, MultithreadIterator, SerialIterator

_EXTRA = {
    SerialIterator: {},
    MultithreadIterator: {'n_threads': 2},
    MultiprocessIterator: {'n_processes': 2},
}


@pytest.fixture(params=[SerialIterator, MultithreadIterator, MultiprocessIterator],
                ids=['serial', 'multithread', 'multiprocess'])
def make_iterator(request):
    """``make_iterator(dataset, batch_size, **kwargs)``: an iterator of the kind under test,
    finalized after the test (which then checks that no worker process is left)."""
    made = []
    before = set(multiprocessing.active_children())

    def make(dataset, batch_size, **kwargs):
        iterator = request.param(dataset, batch_size, **_EXTRA[request.param], **kwargs)
        made.append(iterator)
        return iterator

    make.kind = request.param
    yield make
    for iterator in made:
        iterator.finalize()
    assert set(multiprocessing.active_children()) <= before

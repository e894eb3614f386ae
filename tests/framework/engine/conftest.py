import contextlib

import pytest

from framework.engine import NaiveEngine, ThreadedEngine

ENGINES = {'naive': NaiveEngine, 'threaded': lambda: ThreadedEngine(num_cpu_workers=4)}


def _shut(eng):
    with contextlib.suppress(Exception):
        eng.shutdown()


@pytest.fixture(params=sorted(ENGINES))
def engine(request):
    """A fresh engine of each kind, shut down after the test (its pending errors dropped)."""
    eng = ENGINES[request.param]()
    yield eng
    _shut(eng)


@pytest.fixture
def threaded():
    """A fresh threaded engine with four workers, for what only concurrency shows."""
    eng = ThreadedEngine(num_cpu_workers=4)
    yield eng
    _shut(eng)

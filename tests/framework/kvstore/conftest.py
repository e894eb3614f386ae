import pytest

import framework.engine


@pytest.fixture(params=['naive', 'threaded'])
def engine(request, monkeypatch):
    """The process's engine, of each kind, made fresh for the test."""
    monkeypatch.setenv('FRAMEWORK_ENGINE', request.param)
    monkeypatch.setattr(framework.engine, '_engine', None)
    eng = framework.engine.get_engine()
    yield eng
    eng.wait_for_all()


@pytest.fixture
def threaded_engine(monkeypatch):
    """The process's engine, a fresh threaded one."""
    monkeypatch.setenv('FRAMEWORK_ENGINE', 'threaded')
    monkeypatch.setattr(framework.engine, '_engine', None)
    eng = framework.engine.get_engine()
    yield eng
    eng.wait_for_all()

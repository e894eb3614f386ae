"""A pytest plugin that holds every test to what CuPy accepts.

The emulated device raises on any call that CuPy would refuse (see
:mod:`framework.testing.cupy_namespace`): a name or keyword CuPy lacks, an implicit conversion
to the host, a mix of host and device arrays. Code under test may catch that error (an
``except TypeError`` fallback, a ``hasattr(xp, ...)``) and pass, taking on every device a path
that was written for NumPy. With this plugin a test fails when the emulated device refused a
call while it ran, even a caught one, unless it is marked ``cupy_refusals`` (tests of the
refusals themselves). Probes of attributes of arrays are not refusals: they fail on CuPy's
arrays alike.

``--cupy-calls=PATH`` writes every call the emulated device checked during the session to
``PATH``, one per line (``cupy.sum(axis, keepdims)``: the function and the keywords given); under
pytest-xdist each worker writes ``PATH.<worker id>``.

Tests with GPU 0 among their parameters (:func:`framework.testing.devices`) are marked ``gpu``
and, where no GPU is, skipped with the reason; ``pytest -m gpu`` selects them.

Enable it with ``pytest_plugins = ['framework.testing.pytest_plugin']`` in a root conftest.
"""

from __future__ import annotations

import os
import pathlib

import pytest

from framework.testing import cupy_namespace
from framework.testing.devices import ABSENT_GPU, NO_GPU_REASON, is_gpu


def pytest_addoption(parser):
    parser.addoption('--cupy-calls', metavar='PATH', default=None,
                     help='write the array-module calls made on the emulated device to PATH')


def pytest_configure(config):
    config.addinivalue_line('markers', 'cupy_refusals: the test makes the emulated device '
                            'refuse calls on purpose')
    config.addinivalue_line('markers', 'gpu: the test runs on a GPU (skipped where none is)')


def pytest_collection_modifyitems(config, items):
    for item in items:
        params = getattr(item, 'callspec', None)
        values = list(params.params.values()) if params is not None else []
        if not any(is_gpu(value) for value in values):
            continue
        item.add_marker(pytest.mark.gpu)
        if any(value is ABSENT_GPU for value in values):
            item.add_marker(pytest.mark.skip(reason=NO_GPU_REASON))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    before = len(cupy_namespace.recorded_refusals())
    result = yield
    refused = cupy_namespace.recorded_refusals()[before:]
    if refused and item.get_closest_marker('cupy_refusals') is None:
        pytest.fail('the emulated device refused what CuPy would refuse, and the code caught '
                    'the error and went on (a path written for NumPy?):\n  '
                    + '\n  '.join(refused), pytrace=False)
    return result


def pytest_sessionfinish(session):
    path = session.config.getoption('--cupy-calls')
    if not path:
        return
    worker = os.environ.get('PYTEST_XDIST_WORKER')
    path = pathlib.Path(f'{path}.{worker}' if worker else path)
    path.write_text(''.join(f'{call}\n' for call in sorted(cupy_namespace.recorded_calls())))

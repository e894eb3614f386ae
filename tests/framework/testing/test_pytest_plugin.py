"""The plugin fails tests in which the emulated device refused a call, even a caught one, and
lists the calls it checked."""

import pytest

_TESTS = '''
import pytest
from framework.testing.emulated_device import xp

def test_caught_refusal():
    try:
        xp.sum(xp.ones(2), initial=0)
    except TypeError:
        pass

def test_caught_hasattr():
    assert not hasattr(xp, 'geomspace')

@pytest.mark.cupy_refusals
def test_refusal_on_purpose():
    with pytest.raises(TypeError):
        xp.sum(xp.ones(2), where=True)

def test_cupy_calls_only():
    assert float(xp.sum(xp.ones(2), axis=0)) == 2
'''


@pytest.mark.cupy_refusals  # the inner tests run in this process
def test_caught_refusals_fail_the_test_and_calls_are_listed(pytester, monkeypatch):
    monkeypatch.delenv('PYTEST_XDIST_WORKER', raising=False)  # the inner run is not a worker
    pytester.makepyfile(test_inner=_TESTS)
    calls = pytester.path / 'calls.txt'
    result = pytester.runpytest_inprocess('-p', 'framework.testing.pytest_plugin',
                                          '-p', 'no:cacheprovider', f'--cupy-calls={calls}')
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(['*refused what CuPy would refuse*', "*'initial'*",
                                 '*cupy.geomspace: CuPy * has no such name*'])
    listed = calls.read_text().splitlines()
    assert 'cupy.sum(axis)' in listed and 'cupy.sum(initial)' in listed
    assert listed == sorted(listed)

import unittest

import pytest

from framework.testing import condition


class _Flaky:
    """A test body that fails on the trials listed in ``failing`` (counted from 0)."""

    def __init__(self, failing):
        self.failing, self.calls = set(failing), 0

    def __call__(self):
        trial, self.calls = self.calls, self.calls + 1
        assert trial not in self.failing, f'trial {trial} failed'


@pytest.mark.parametrize('decorator, failing, calls', [
    (condition.retry(3), [0, 1], 3),
    (condition.retry(3), [], 1),
    (condition.repeat(3), [], 3),
    (condition.repeat_with_success_at_least(5, 3), [0, 2], 5),
    (condition.repeat_with_success_at_least(5, 3), [1], 4),
])
def test_passes_once_enough_trials_pass(decorator, failing, calls):
    body = _Flaky(failing)
    decorator(body)()
    assert body.calls == calls


@pytest.mark.parametrize('decorator, failing, calls, passed', [
    (condition.retry(3), [0, 1, 2], 3, 0),
    (condition.repeat(3), [1], 2, 1),
    (condition.repeat_with_success_at_least(5, 3), [0, 1, 2], 3, 0),
])
def test_fails_as_soon_as_too_few_trials_can_pass(decorator, failing, calls, passed):
    body = _Flaky(failing)
    with pytest.raises(AssertionError, match=f'{passed} of the .* trials needed passed') as info:
        decorator(body)()
    assert body.calls == calls
    assert 'trial 1 failed' in str(info.value) or 'trial 0 failed' in str(info.value)


def test_skip_is_not_retried():
    body = _Flaky([])

    @condition.retry(3)
    def test():
        body()
        pytest.skip('no device')

    with pytest.raises(pytest.skip.Exception):
        test()
    assert body.calls == 1


def test_test_case_methods_get_a_fresh_set_up_per_trial():
    events = []

    class Case(unittest.TestCase):
        def setUp(self):
            self.trial = sum(event.startswith('setUp') for event in events) + 1
            events.append(f'setUp {self.trial}')

        def tearDown(self):
            events.append('tearDown')

        @condition.retry(3)
        def test_trial(self):
            events.append(f'test {self.trial}')
            assert self.trial == 2

    result = unittest.TestResult()
    Case('test_trial').run(result)
    assert result.wasSuccessful()
    assert events == ['setUp 1', 'test 1', 'tearDown', 'setUp 2', 'test 2', 'tearDown']


@pytest.mark.parametrize('args, error, message', [
    ((3, 0), ValueError, r'min_success must be in \[1, times = 3\], but got 0'),
    ((2, 3), ValueError, r'min_success must be in \[1, times = 2\], but got 3'),
    ((2.0, 1), TypeError, 'times must be an int, but got float'),
])
def test_bad_counts(args, error, message):
    with pytest.raises(error, match='repeat_with_success_at_least: ' + message):
        condition.repeat_with_success_at_least(*args)

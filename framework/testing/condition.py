"""Repeating a flaky test, as ``chainer.testing.condition`` does: ``@condition.retry(3)`` passes
when one of three trials passes, ``@condition.repeat(3)`` when all three do, and
``@condition.repeat_with_success_at_least(5, 3)`` when at least three of five do.

A trial is a call of the test; on a :class:`unittest.TestCase` method, each trial after the
first runs after ``tearDown`` and a fresh ``setUp``, so that it draws new random inputs.
"""

from __future__ import annotations

import functools
import unittest
from collections.abc import Callable


def _check_counts(fname: str, times, min_success) -> None:
    for name, value in (('times', times), ('min_success', min_success)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f'{fname}: {name} must be an int, but got {type(value).__name__}')
    if not 1 <= min_success <= times:
        raise ValueError(f'{fname}: min_success must be in [1, times = {times}], '
                         f'but got {min_success}')


def repeat_with_success_at_least(times: int, min_success: int) -> Callable:
    """Returns a decorator that runs a test up to ``times`` times and passes it once
    ``min_success`` trials have passed; it fails as soon as that can no longer happen.

    Args:
        times (int): the most trials.
        min_success (int): the trials that must pass, in ``[1, times]``.

    Returns:
        A decorator of test functions and of :class:`unittest.TestCase` methods. The test's
        :class:`unittest.SkipTest` (or pytest's skip) is raised at once.
    """
    _check_counts('repeat_with_success_at_least', times, min_success)

    def decorate(test: Callable) -> Callable:
        @functools.wraps(test)
        def wrapper(*args, **kwargs):
            case = args[0] if args and isinstance(args[0], unittest.TestCase) else None
            successes, first_error = 0, None
            for trial in range(times):
                if times - trial < min_success - successes:
                    break
                if case is not None and trial:
                    case.tearDown()
                    case.setUp()
                try:
                    test(*args, **kwargs)
                except Exception as error:
                    if isinstance(error, unittest.SkipTest) or type(error).__name__ == 'Skipped':
                        raise
                    first_error = first_error or error
                    continue
                successes += 1
                if successes == min_success:
                    return
            name = getattr(test, '__qualname__', repr(test))
            raise AssertionError(
                f'{name}: {successes} of the {min_success} trials needed passed '
                f'(of at most {times}); the first failure: {first_error!r}') from first_error

        return wrapper

    return decorate


def repeat(times: int) -> Callable:
    """Returns a decorator that passes a test when all of ``times`` trials pass."""
    return repeat_with_success_at_least(times, times)


def retry(times: int) -> Callable:
    """Returns a decorator that passes a test when one of at most ``times`` trials passes."""
    return repeat_with_success_at_least(times, 1)

"""What the contract assertions share: failing with a message, and walking a dataset."""

from __future__ import annotations

from collections.abc import Callable

import numpy


def fail_unless(condition, message: str) -> None:
    """Raises :class:`AssertionError` with ``message`` unless ``condition`` holds.

    Unlike an ``assert`` statement, this also checks under ``python -O``.
    """
    if not condition:
        raise AssertionError(message)


def describe(x) -> str:
    """A short description of ``x`` for messages: its type, and shape and dtype if an array."""
    if isinstance(x, numpy.ndarray):
        return f'an array of shape {x.shape} and dtype {x.dtype}'
    if isinstance(x, numpy.generic):
        return f'a scalar of dtype {x.dtype}'
    return f'a value of type {type(x).__name__}'


def check_array(where: str, name: str, x, dtype, shape_text: str, shape_ok) -> None:
    """Checks that ``x`` is a NumPy array of ``dtype`` whose shape satisfies ``shape_ok``."""
    fail_unless(isinstance(x, numpy.ndarray),
                f'{where}: {name} must be a numpy.ndarray, but got {describe(x)}')
    fail_unless(x.dtype == dtype,
                f'{where}: {name} must have dtype {numpy.dtype(dtype)}, but got dtype {x.dtype}')
    fail_unless(shape_ok(x.shape),
                f'{where}: {name} must have shape {shape_text}, but got shape {x.shape}')


def check_range(where: str, name: str, x: numpy.ndarray, low: int, high: int) -> None:
    """Checks that every value of ``x`` lies in ``[low, high]`` (nothing to check if empty)."""
    if x.size:
        fail_unless(x.min() >= low and x.max() <= high,
                    f'{where}: the values of {name} must be in [{low}, {high}], but got values '
                    f'in [{x.min()}, {x.max()}]')


def check_example_length(where: str, example, n_min: int, names: str) -> None:
    """Checks that an example has at least ``n_min`` elements."""
    try:
        length = len(example)
    except TypeError:
        length = None
    fail_unless(length is not None and length >= n_min,
                f'{where}: an example must have at least {n_min} elements ({names}), '
                f'but got {describe(example)}' + ('' if length is None else f' of length {length}'))


def check_examples(fname: str, dataset, n_example: int | None,
                   check_example: Callable[[str, object], None]) -> None:
    """Runs ``check_example(where, example)`` on all examples, or ``n_example`` random ones."""
    fail_unless(len(dataset) > 0, f'{fname}: the dataset must not be empty, but has length 0')
    if n_example:
        indices = [numpy.random.randint(0, len(dataset)) for _ in range(n_example)]
    else:
        indices = range(len(dataset))
    for i in indices:
        check_example(f'{fname}: example {i}', dataset[i])


def random_images() -> list[numpy.ndarray]:
    """The two images (3, 480, 640) and (3, 480, 320) with which link predictions are checked."""
    return [numpy.random.randint(0, 256, size=(3, 480, 640)).astype(numpy.float32),
            numpy.random.randint(0, 256, size=(3, 480, 320)).astype(numpy.float32)]


def check_prediction_count(where: str, name: str, values, imgs) -> None:
    """Checks that a link returned one ``name`` entry per input image."""
    try:
        length = len(values)
    except TypeError:
        length = None
    fail_unless(length == len(imgs),
                f'{where}: {name} must have one entry per image ({len(imgs)}), but got '
                f'{describe(values)}' + ('' if length is None else f' of length {length}'))

"""Every ```python block of README.md runs as written.

Each block runs in a fresh namespace, in a temporary working directory, with ``$VISION_HOME``
a temporary folder and ``$VISION_OFFLINE`` set, so that a block that would download fails. An
HTML comment on the line before a block's fence marks it: ``<!-- needs network -->`` (skipped)
or ``<!-- slow -->`` (marked ``slow``).
"""

from __future__ import annotations

import re
import traceback
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / 'README.md'
NEEDS_NETWORK = '<!-- needs network -->'
SLOW = '<!-- slow -->'
FENCE = re.compile(r'^```(\S*)\s*$')


def python_blocks(text: str) -> list[tuple[int, str, str]]:
    """``(line, marker, source)`` of each ```python block: the 1-based line of its first line
    of code, the stripped line before its opening fence, and its code."""
    lines = text.splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if match is None:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not lines[end].startswith('```'):
            end += 1
        if match.group(1) == 'python':
            marker = lines[i - 1].strip() if i > 0 else ''
            blocks.append((i + 2, marker, '\n'.join(lines[i + 1:end]) + '\n'))
        i = end + 1
    return blocks


def first_line(source: str) -> str:
    return next((line for line in source.splitlines() if line.strip()), '')


def _params():
    params = []
    for line, marker, source in python_blocks(README.read_text(encoding='utf-8')):
        marks = []
        if marker == NEEDS_NETWORK:
            marks.append(pytest.mark.skip(reason=f'README.md:{line} needs the network '
                                                 f'(marked {NEEDS_NETWORK})'))
        elif marker == SLOW:
            marks.append(pytest.mark.slow)
        params.append(pytest.param(line, source, marks=marks, id=f'line{line}'))
    return params


def run_block(line: int, source: str) -> dict:
    """Runs ``source`` (README.md from ``line``) in a fresh namespace and returns it; a failure
    raises an AssertionError that names the line, the block's first line and the traceback."""
    namespace = {'__name__': '__readme__'}
    try:
        # Padded so that a traceback gives the README's line numbers.
        exec(compile('\n' * (line - 1) + source, 'README.md', 'exec'), namespace)
    except (Exception, SystemExit) as exc:
        raise AssertionError(
            f'the README block at line {line} ({first_line(source)!r}) failed: '
            f'{type(exc).__name__}: {exc}\n{traceback.format_exc()}') from exc
    return namespace


@pytest.fixture
def readme_env(tmp_path, monkeypatch):
    """A temporary working directory, ``$VISION_HOME`` and offline."""
    home = tmp_path / 'vision_home'
    home.mkdir()
    work = tmp_path / 'work'
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv('VISION_HOME', str(home))
    monkeypatch.setenv('VISION_OFFLINE', '1')
    monkeypatch.setenv('MPLBACKEND', 'Agg')
    return work


@pytest.mark.parametrize(('line', 'source'), _params())
def test_readme_block(readme_env, line, source):
    namespace = run_block(line, source)
    if 'trainer' in namespace:  # a training example must learn: the README says how well
        log = namespace['trainer'].get_extension('LogReport').log
        assert log[-1]['validation/main/accuracy'] >= 0.9, log[-1]


def test_blocks_are_found():
    blocks = python_blocks(README.read_text(encoding='utf-8'))
    assert blocks, 'README.md has no ```python block'
    markers = {marker for _, marker, _ in blocks if marker.startswith('<!--')}
    assert markers <= {NEEDS_NETWORK, SLOW}, f'unknown markers before a block: {markers}'


def test_a_failing_block_fails(readme_env):
    """The harness fails on a broken block, naming its line and first line."""
    text = 'text\n\n```python\nimport os\nraise RuntimeError("boom")\n```\n'
    (line, marker, source), = python_blocks(text)
    assert (line, marker) == (4, '')
    with pytest.raises(AssertionError, match=r"line 4 \('import os'\).*RuntimeError: boom"):
        run_block(line, source)


def test_markers_are_read():
    text = ('a\n<!-- needs network -->\n```python\nx = 1\n```\n<!-- slow -->\n```python\n'
            'y = 2\n```\n```\nnot python\n```\n')
    assert python_blocks(text) == [(4, NEEDS_NETWORK, 'x = 1\n'), (8, SLOW, 'y = 2\n')]

"""The download report: sizes, the redrawn bar, whole lines."""

from __future__ import annotations

import io

import pytest

from vision.utils.download.progress import Progress, format_size


@pytest.mark.parametrize(('n', 'text'), [
    (0, '0 B'), (1023, '1023 B'), (1024, '1.0 KiB'), (1536, '1.5 KiB'),
    (5 * 2**20, '5.0 MiB'), (3 * 2**30, '3.0 GiB'), (2**50, '1024.0 TiB'),
])
def test_format_size(n, text):
    assert format_size(n) == text


def test_bar_without_a_known_total():
    stream = io.StringIO()
    report = Progress('http://h/a', '/c/a', redraw=True, stream=stream)
    report.start(None, 0)
    report.update(3 * 2**20)
    report.finish()
    lines = stream.getvalue().split('\n')
    assert lines[:2] == ['Downloading http://h/a', '  to /c/a']
    assert lines[2].startswith('\r  3.0 MiB  ') and lines[2].rstrip().endswith('/s')
    assert lines[3].startswith('  done: 3.0 MiB in ')


def test_notes_end_the_bar_line():
    stream = io.StringIO()
    report = Progress('http://h/a', '/c/a', redraw=True, stream=stream)
    report.start(100, 0)
    report.update(50)
    report.note('retrying')
    text = stream.getvalue()
    assert '\r   50% 50 B / 100 B  ' in text
    assert text.endswith('\n  retrying\n')

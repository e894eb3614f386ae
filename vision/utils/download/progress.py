"""Progress of a download, written to standard error."""

from __future__ import annotations

import sys
import time
from typing import TextIO

_UNITS = ('B', 'KiB', 'MiB', 'GiB', 'TiB')


def format_size(n: float) -> str:
    """Formats a byte count with a binary unit, e.g. ``'1.5 MiB'``."""
    for unit in _UNITS[:-1]:
        if abs(n) < 1024:
            return f'{n:.0f} {unit}' if unit == 'B' else f'{n:.1f} {unit}'
        n /= 1024
    return f'{n:.1f} {_UNITS[-1]}'


class Progress:
    """Reports a download on a text stream (standard error unless told otherwise).

    On a terminal (``redraw=True``) one line is redrawn in place, at most ten times a second,
    with the percentage, the size received and the total, the speed and the time left. Elsewhere
    (logs, CI, captured output) a carriage-return bar would leave hundreds of fragments, so only
    whole lines are written: where the file goes, where a resumed download starts, retries, and
    a summary with the size, the time and the mean speed.

    Args:
        url (str): What is downloaded.
        path (str): Where it goes.
        redraw (bool): Redraw a bar in place (for a terminal) or write whole lines only.
        stream (file or None): Where to write; None is ``sys.stderr`` at the time of writing.

    """

    def __init__(self, url: str, path: str, redraw: bool, stream: TextIO | None = None) -> None:
        self._stream = stream
        self.redraw = redraw
        self.total: int | None = None
        self.done = 0
        self._initial = 0
        self._start = time.monotonic()
        self._last_draw = 0.0
        self._bar_open = False
        self._write(f'Downloading {url}\n  to {path}\n')

    def start(self, total: int | None, initial: int) -> None:
        """Starts an attempt that receives the bytes from ``initial`` up to ``total``."""
        self.total = total
        self.done = self._initial = initial
        self._start = time.monotonic()
        if initial:
            of_total = f' of {format_size(total)}' if total else ''
            self.note(f'resuming at {format_size(initial)}{of_total}')

    def update(self, n: int) -> None:
        """Counts ``n`` more bytes received."""
        self.done += n
        now = time.monotonic()
        if self.redraw and now - self._last_draw >= 0.1:
            self._last_draw = now
            self._draw(now)

    def note(self, text: str) -> None:
        """Writes one line (a retry, a resumption), ending the bar first."""
        self._end_bar()
        self._write(f'  {text}\n')

    def finish(self) -> None:
        """Writes the summary: size, time and mean speed."""
        now = time.monotonic()
        if self.redraw:
            self._draw(now)
        self._end_bar()
        elapsed = now - self._start
        self._write(f'  done: {format_size(self.done)} in {elapsed:.1f} s '
                    f'({format_size(self._speed(now))}/s)\n')

    def _speed(self, now: float) -> float:
        return (self.done - self._initial) / max(now - self._start, 1e-6)

    def _draw(self, now: float) -> None:
        speed = self._speed(now)
        if self.total:
            left = (self.total - self.done) / speed if speed > 0 else float('inf')
            eta = f'{left:.0f} s left' if left < 1e6 else '-- s left'
            text = (f'{100 * self.done // self.total:3d}% {format_size(self.done)} / '
                    f'{format_size(self.total)}  {format_size(speed)}/s  {eta}')
        else:
            text = f'{format_size(self.done)}  {format_size(speed)}/s'
        self._write(f'\r  {text:<60}')
        self._bar_open = True

    def _end_bar(self) -> None:
        if self._bar_open:
            self._write('\n')
            self._bar_open = False

    def _write(self, text: str) -> None:
        stream = self._stream if self._stream is not None else sys.stderr
        stream.write(text)
        stream.flush()


def make_progress(progress: bool | None, url: str, path: str) -> Progress | None:
    """Chooses the report: None draws a bar on a terminal and whole lines elsewhere, True always
    draws the bar, False reports nothing."""
    if progress is False:
        return None
    redraw = True if progress else _isatty(sys.stderr)
    return Progress(url, path, redraw)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

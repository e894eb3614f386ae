"""Writing progress to a stream: drawn in place on a terminal, plain lines elsewhere."""

from __future__ import annotations

import collections
import datetime
import sys
import time

_ERASE_BELOW = '\033[J'


def resolve_stream(out):
    """``out``, or the current ``sys.stdout`` when None (looked up at each write, so that a
    redirection made after the extension was built is followed)."""
    return sys.stdout if out is None else out


def is_terminal(out) -> bool:
    """Whether ``out`` is an interactive terminal (escape sequences are then understood)."""
    isatty = getattr(out, 'isatty', None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed file
        return False


def erase_below(out) -> None:
    """On a terminal, erases from the cursor to the end of the screen (a progress display)."""
    if is_terminal(out):
        out.write(_ERASE_BELOW)


def flush(out) -> None:
    if hasattr(out, 'flush'):
        out.flush()


def bar(rate: float, length: int) -> str:
    """``'[####......]'`` filled to ``rate`` (in [0, 1])."""
    marks = '#' * int(rate * length)
    return f'[{marks}{"." * (length - len(marks))}]'


def format_duration(seconds: float) -> str:
    """``'0:01:23'``, or ``'unknown'`` when the speed is not known yet."""
    if not seconds < float('inf'):
        return 'unknown'
    return str(datetime.timedelta(seconds=round(max(seconds, 0.0))))


class ProgressDisplay:
    """A progress display: a block of lines redrawn in place on a terminal, or one plain line
    per update on any other stream (a log file stays readable).

    Subclasses return the terminal block from :meth:`get_lines` and the plain line from
    :meth:`get_plain_line`.

    Args:
        bar_length (int): the length of the bars in characters (50).
        out: the stream; the current ``sys.stdout`` when None.
    """

    def __init__(self, bar_length: int | None = None, out=None):
        self._bar_length = 50 if bar_length is None else bar_length
        self._out = out
        self._recent_timing: collections.deque = collections.deque([], maxlen=100)

    @property
    def out(self):
        return resolve_stream(self._out)

    def update_speed(self, iteration: int, epoch_detail: float) -> tuple[float, float]:
        """Records the position now; returns the speed in iterations and epochs per second
        over the last 100 records (infinite while no time has passed)."""
        now = time.perf_counter()
        self._recent_timing.append((iteration, epoch_detail, now))
        old_iteration, old_epoch, old_time = self._recent_timing[0]
        span = now - old_time
        if span == 0:
            return float('inf'), float('inf')
        return (iteration - old_iteration) / span, (epoch_detail - old_epoch) / span

    def get_lines(self) -> list[str]:
        """The block drawn on a terminal, one string per line (with its newline)."""
        raise NotImplementedError

    def get_plain_line(self) -> str:
        """The line written to a stream that is not a terminal (without its newline)."""
        raise NotImplementedError

    def update(self) -> None:
        """Draws the current progress."""
        out = self.out
        if is_terminal(out):
            lines = self.get_lines()
            out.write(_ERASE_BELOW + ''.join(lines) + f'\033[{len(lines):d}A')
        else:
            out.write(self.get_plain_line() + '\n')
        flush(out)

    def close(self) -> None:
        """Erases the block from a terminal."""
        out = self.out
        erase_below(out)
        flush(out)


def speed_line(speed: float, seconds_left: float, unit: str = 'iters') -> str:
    """``'    123.45 iters/sec. Estimated time to finish: 0:01:23.'`` with its newline."""
    return (f'{speed:10.5g} {unit}/sec. Estimated time to finish: '
            f'{format_duration(seconds_left)}.\n')


def seconds_left(remaining: float, speed: float) -> float:
    """The time to cover ``remaining`` at ``speed`` (infinite when the speed is 0)."""
    return remaining / speed if speed > 0 else float('inf')

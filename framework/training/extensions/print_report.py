"""PrintReport: prints chosen entries of the log as a table."""

from __future__ import annotations

from framework.training import extension
from framework.training.extensions import _console
from framework.training.extensions.log_report import LogReport


class PrintReport(extension.Extension):
    """Prints the entries of a :class:`LogReport`'s log as rows of a table, a header first.

    Args:
        entries (list of str): the keys to print, one column each (an entry lacking a key
            leaves its cell blank).
        log_report (str or LogReport): the name of a LogReport registered to the trainer, or a
            LogReport that this extension runs itself.
        out: the stream; the current ``sys.stdout`` when None. On a terminal, a progress bar
            drawn below the cursor is erased before each row.
    """

    def __init__(self, entries: list[str], log_report: str | LogReport = 'LogReport', out=None):
        self._entries = entries
        self._log_report = log_report
        self._out = out
        self._log_len = 0  # the number of log entries printed
        widths = [max(10, len(s)) for s in entries]
        self._header = '  '.join(f'{entry:{w}}' for entry, w in zip(entries, widths)) + '\n'
        self._templates = [(entry, f'{{:<{w}g}}  ', ' ' * (w + 2))
                           for entry, w in zip(entries, widths)]

    def __call__(self, trainer) -> None:
        out = _console.resolve_stream(self._out)
        if self._header:
            out.write(self._header)
            self._header = None
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, LogReport):
            log_report(trainer)
        else:
            raise TypeError('PrintReport: log_report must be the name of a LogReport or a '
                            f'LogReport, but got {type(log_report).__name__}')
        log = log_report.log
        while len(log) > self._log_len:
            _console.erase_below(out)
            self._print(out, log[self._log_len])
            self._log_len += 1

    def serialize(self, serializer) -> None:
        """Saves or loads the LogReport this extension owns (``_log_report/``), if any."""
        if isinstance(self._log_report, LogReport):
            self._log_report.serialize(serializer['_log_report'])

    def _print(self, out, observation: dict) -> None:
        for entry, template, empty in self._templates:
            out.write(template.format(observation[entry]) if entry in observation else empty)
        out.write('\n')
        _console.flush(out)

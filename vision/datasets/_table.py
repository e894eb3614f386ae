"""Reading the whitespace-separated annotation tables that datasets ship as text files."""

from __future__ import annotations

import os
from collections.abc import Sequence

from vision.datasets._annotation import AnnotationError

_KINDS: dict[type, str] = {int: 'an integer', float: 'a number', str: 'a string'}


def read_table(fname: str, path: str, columns: Sequence[tuple[str, type]],
               header: Sequence[str] | None = None) -> list[list]:
    """Reads a text table: one row per non-blank line, fields separated by whitespace.

    Args:
        fname (str): The public name to put in error messages.
        path (str): The file.
        columns (sequence of (str, type)): The name and the type (:obj:`int`, :obj:`float`
            or :obj:`str`) of each field; every row must have exactly these fields.
        header (sequence of str): If given, the first line must hold these words, and it is
            skipped.

    Returns:
        list of lists: One list per column, holding the converted values.

    Raises:
        FileNotFoundError: The file does not exist.
        AnnotationError: A row has the wrong number of fields or a field cannot be converted;
            the message names the file, the line and the field.

    """
    if not os.path.isfile(path):
        raise FileNotFoundError(f'{fname}: the annotation file {path} does not exist')
    names = [name for name, _ in columns]
    values: list[list] = [[] for _ in columns]
    with open(path, encoding='utf-8') as f:
        lines = enumerate(f, 1)
        if header is not None:
            line = next(lines, (1, ''))[1]
            if line.split() != list(header):
                raise AnnotationError(fname, path, 'line 1', f'must be the header '
                                      f'{" ".join(header)!r}, but is {line.strip()!r}')
        for number, line in lines:
            fields = line.split()
            if not fields:
                continue
            if len(fields) != len(columns):
                raise AnnotationError(fname, path, f'line {number}', f'must have '
                                      f'{len(columns)} fields ({" ".join(names)}), but has '
                                      f'{len(fields)}: {line.strip()!r}')
            for column, (name, kind), field in zip(values, columns, fields):
                try:
                    column.append(kind(field))
                except ValueError:
                    raise AnnotationError(fname, path, f'line {number}, field {name}',
                                          f'must be {_KINDS[kind]}, but is {field!r}') from None
    return values

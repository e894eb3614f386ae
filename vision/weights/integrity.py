"""Whether a weight file is whole, judged by its format: an NPZ file opens as a zip archive
whose members are arrays with correct CRCs; a PyTorch checkpoint parses with
:func:`framework.serializers.load_torch`.

A download is checked so before it enters the cache (:mod:`vision.weights.fetch`): the only
check of a file whose publisher gives no hash, served without a ``Content-Length``. A cached
file that fails to load is checked so too, which tells a damaged file
(:class:`CorruptWeightError`, with the command that fetches it again) from the weights of
another model.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import zipfile
import zlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from framework.serializers import load_torch

if TYPE_CHECKING:
    from vision.weights.manifest import WeightSpec

_WHO = 'vision.weights'
_KINDS = {'npz': 'NPZ file', 'torch': 'PyTorch checkpoint'}
_ZIP_MAGIC = b'PK\x03\x04'


class CorruptWeightError(ValueError):
    """A weight file of the cache is damaged: it fails to load, and fails its format check.

    The message names the file, what is wrong with it, and the command that fetches it again
    (``vision download ... --force``).

    Attributes:
        path (str): the file.
        problem (str): what is wrong with it.
        command (str): the command that deletes it and fetches it again.
    """

    def __init__(self, path: str, weight: str, problem: str, command: str) -> None:
        self.path = path
        self.weight = weight
        self.problem = problem
        self.command = command
        super().__init__(f'{_WHO}: the cached file {path} of {weight} is corrupt: {problem}; '
                         f'delete it, or fetch it again with: {command}')

    def __reduce__(self):
        return type(self), (self.path, self.weight, self.problem, self.command)


def file_problem(path: str, kind: str) -> str | None:
    """What is wrong with a weight file, judged by its format.

    Args:
        path (str): the file.
        kind (str): ``'npz'`` or ``'torch'``, what the file must be.

    Returns:
        str or None: None when the file is whole, else what is wrong with it, e.g. ``'not a
        valid NPZ file: it is not a zip archive: it begins with ...'``.
    """
    with open(path, 'rb') as f:
        head = f.read(64)
    problem = _zip_problem(path, head, kind)
    if problem is None and kind == 'torch':
        problem = _torch_problem(path)
    return None if problem is None else f'not a valid {_KINDS[kind]}: {problem}'


def refetch_command(spec: WeightSpec) -> str:
    """The command that deletes the cached files of a weight and fetches them again:
    ``vision download --model M --weights W [--arg NAME=VALUE ...] --force``."""
    words = ['vision', 'download', '--model', spec.model, '--weights', spec.name]
    for key, value in spec.model_kwargs.items():
        words += ['--arg', f'{key}={value if isinstance(value, str) else json.dumps(value)}']
    return shlex.join([*words, '--force'])


@contextlib.contextmanager
def reporting_corruption(spec: WeightSpec, path: str, kind: str) -> Iterator[None]:
    """Turns an error raised while loading a cached file into :class:`CorruptWeightError` when
    the file fails its format check; an error of a whole file (the weights of another model)
    stays as it is.

    Args:
        spec (WeightSpec): the weight the file holds.
        path (str): the file.
        kind (str): ``'npz'`` or ``'torch'``.
    """
    try:
        yield
    except Exception as error:
        problem = file_problem(path, kind)
        if problem is None:
            raise
        raise CorruptWeightError(path, spec.describe(), problem,
                                 refetch_command(spec)) from error


def _zip_problem(path: str, head: bytes, kind: str) -> str | None:
    """What is wrong with the zip archive at ``path``: it is none, it cannot be opened (cut
    short), a member is damaged (what :meth:`zipfile.ZipFile.testzip` checks: its header, its
    compressed data, its CRC-32), or, for an NPZ file, a member is not an array."""
    if head[:4] != _ZIP_MAGIC:
        return None if kind == 'torch' else f'it is not a zip archive: {_describe_head(head)}'
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            for info in archive.infolist():
                try:
                    with archive.open(info) as member:
                        while member.read(1 << 20):
                            pass
                except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as e:
                    return f'the member {info.filename} is damaged ({e})'
    except (zipfile.BadZipFile, OSError) as e:
        return (f'it is not a zip archive that can be opened ({e}), as when a download was '
                'cut short')
    others = [n for n in names if not n.endswith('.npy')]
    if kind == 'npz' and (others or not names):
        return (f'it is a zip archive, but not of arrays (.npy): it holds '
                f'{", ".join(others[:3]) or "nothing"}')
    return None


def _torch_problem(path: str) -> str | None:
    """Why :func:`framework.serializers.load_torch` cannot parse the file, or None."""
    try:
        load_torch(path)
    except Exception as e:  # any failure of the reader: the file does not parse
        return str(e).replace(f'load_torch: {path}', 'load_torch: the file')
    return None


def _describe_head(head: bytes) -> str:
    """``it begins with '<!DOCTYPE html>...' (an HTML page, ...)``, or ``it is empty``."""
    if not head:
        return 'it is empty'
    text = head[:40].decode('latin-1')
    shown = repr(text)[1:-1] + ('...' if len(head) > 40 else '')
    page = b'<html' in head.lower() or head.lstrip().lower().startswith(b'<!doctype')
    return f"it begins with '{shown}'" + (
        " (an HTML page, such as a network's sign-in page or a server's error page, not the "
        'file)' if page else '')

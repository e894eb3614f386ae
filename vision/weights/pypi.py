"""Files inside a wheel of the Python Package Index, fetched with pip by package name.

A source ``{"pypi": "facenet-pytorch==2.6.0", "files": {"<member>": "<sha256>", ...}}`` names
a pinned package and the files of its wheel that a weight is made of. The missing files are
fetched together, with one download of the wheel: ``python -m pip download --no-deps
--only-binary=:all: facenet-pytorch==2.6.0`` into a temporary folder (so pip's own settings
apply: ``PIP_INDEX_URL``, ``PIP_FIND_LINKS``, proxies...), then the wheel is opened as a zip and
each member extracted and checked against its sha256. Only when all of them match are they moved,
atomically, to ``$VISION_HOME/pypi/<package>==<version>/<member>``; a file already there (placed
by hand, for instance) is used as it is once it has its sha256.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping
from pathlib import Path, PurePosixPath

from vision.utils.download import (
    DownloadError,
    FileLock,
    HashMismatchError,
    file_sha256,
    get_vision_home,
)
from vision.utils.download.root import is_offline

_WHO = 'vision.weights'
_REQUIREMENT = re.compile(r'([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9][A-Za-z0-9.+!_-]*)')


class PackageDownloadError(DownloadError):
    """Files of a package of the Python Package Index could not be fetched.

    The message names the package, its version, the files and, for each, the path under
    ``$VISION_HOME`` where it may be placed by hand.

    Attributes:
        requirement (str): the pinned package, ``'facenet-pytorch==2.6.0'``.
        reason (str): why it failed.
        files (dict): the sha256 of each file that was wanted, by its path in the wheel.
        path (str): the folder the files go to, ``$VISION_HOME/pypi/<requirement>``.
    """

    def __init__(self, requirement: str, reason: str, files: Mapping[str, str],
                 path: str) -> None:
        self.requirement = requirement
        self.files = dict(files)
        super().__init__(f'pypi:{requirement}', reason, path, None, _WHO)

    def _message(self) -> str:
        name, version = parse_requirement(self.requirement)
        places = ''.join(f'\n  {member} -> {os.path.join(self.path, *member.split("/"))} '
                         f'(sha256 {sha256})' for member, sha256 in self.files.items())
        return (f'{self.fname}: could not fetch {len(self.files)} file(s) of the package '
                f'{name} {version} from the Python Package Index: {self.reason}. To install '
                f'them by hand, download its wheel on a machine that reaches the index (python '
                f'-m pip download --no-deps --only-binary=:all: {self.requirement}), open it '
                f'as a zip and place each file at its path:{places}')

    def __reduce__(self):
        return type(self), (self.requirement, self.reason, self.files, self.path)


def parse_requirement(requirement: str) -> tuple[str, str]:
    """Splits ``'package==version'`` into the package's name and its version.

    Raises:
        ValueError: the requirement is not a package pinned to one version.
    """
    match = _REQUIREMENT.fullmatch(requirement) if isinstance(requirement, str) else None
    if match is None:
        raise ValueError(f'{_WHO}: a package must be pinned as "package==version", but got '
                         f'{requirement!r}')
    return match.group(1), match.group(2)


def check_member(member: str) -> None:
    """Checks that ``member`` is a relative path inside a wheel (``'package/data/a.pt'``).

    Raises:
        ValueError: it is empty, absolute, or goes up with ``..``.
    """
    parts = PurePosixPath(member).parts if isinstance(member, str) else ()
    if not parts or member.startswith('/') or '..' in parts or '\\' in member:
        raise ValueError(f'{_WHO}: a file of a package must be a relative path such as '
                         f'"package/data/model.pt", but got {member!r}')


def package_folder(requirement: str) -> Path:
    """The cache folder of a package's files: ``$VISION_HOME/pypi/<package>==<version>``."""
    parse_requirement(requirement)
    return Path(get_vision_home()) / 'pypi' / requirement


def pip_download(requirement: str, dest: str) -> subprocess.CompletedProcess:
    """Downloads the wheel of ``requirement`` (and nothing else) into ``dest`` with pip.

    Returns:
        subprocess.CompletedProcess: pip's exit status and its output, as text.
    """
    command = [sys.executable, '-m', 'pip', 'download', '--no-deps', '--only-binary=:all:',
               '--disable-pip-version-check', '--quiet', '-d', dest, requirement]
    return subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)


def fetch_package_files(requirement: str, files: Mapping[str, str]) -> dict[str, str]:
    """Returns the local paths of files of a package, fetching the missing ones with pip.

    Args:
        requirement (str): the pinned package, ``'facenet-pytorch==2.6.0'``.
        files (dict): the sha256 of each file, by its path in the wheel.

    Returns:
        dict: the path of each file in the cache, by its path in the wheel.

    Raises:
        PackageDownloadError: offline (``$VISION_OFFLINE``), pip failed, or the wheel lacks a
            file; the message says where to place the files by hand.
        HashMismatchError: a file of the wheel, or one already in the cache, does not have
            its sha256; a file of the wheel that fails enters the cache with none of the others.
    """
    for member in files:
        check_member(member)
    folder = package_folder(requirement)
    paths = {member: os.path.join(folder, *member.split('/')) for member in files}
    if not all(os.path.isfile(p) for p in paths.values()):
        folder.mkdir(parents=True, exist_ok=True)
        with FileLock(f'{folder}.lock'):
            missing = {m: files[m] for m, p in paths.items() if not os.path.isfile(p)}
            if missing:
                _download(requirement, missing, folder)
    for member, path in paths.items():
        actual = file_sha256(path)
        if actual != files[member].lower():
            raise HashMismatchError(f'pypi:{requirement}/{member}', path, files[member], actual,
                                    True, _WHO)
    return paths


def _download(requirement: str, files: Mapping[str, str], folder: Path) -> None:
    """Extracts ``files`` from the wheel that pip downloads and moves them into ``folder``."""
    def fail(reason: str) -> PackageDownloadError:
        return PackageDownloadError(requirement, reason, files, str(folder))

    if is_offline():
        raise fail('the network is off ($VISION_OFFLINE is set)')
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix='.pip-') as tmp:
        done = pip_download(requirement, tmp)
        if done.returncode != 0:
            tail = ' '.join((done.stderr or done.stdout or '').strip().splitlines()[-3:])
            raise fail(f'pip download failed with exit status {done.returncode}: {tail}')
        wheels = sorted(p.name for p in Path(tmp).glob('*.whl'))
        if len(wheels) != 1:
            raise fail(f'pip download gave {len(wheels)} wheels instead of one: {wheels}')
        parts = {}
        with zipfile.ZipFile(Path(tmp) / wheels[0]) as wheel:
            absent = sorted(set(files) - set(wheel.namelist()))
            if absent:
                raise fail(f'the wheel {wheels[0]} has no file {", ".join(absent)}')
            for i, (member, sha256) in enumerate(files.items()):
                part = os.path.join(tmp, f'{i}.part')
                with wheel.open(member) as src, open(part, 'wb') as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
                actual = file_sha256(part)
                if actual != sha256.lower():
                    raise HashMismatchError(f'pypi:{requirement}/{member}',
                                            os.path.join(folder, *member.split('/')), sha256,
                                            actual, False, _WHO)
                parts[member] = part
        for member, part in parts.items():
            target = os.path.join(folder, *member.split('/'))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            os.replace(part, target)

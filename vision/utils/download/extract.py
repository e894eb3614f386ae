"""Safe, all-or-nothing extraction of ``.zip`` and ``.tar`` (plain, gzip, bzip2, xz) archives."""

from __future__ import annotations

import glob
import os
import shutil
import tarfile
import tempfile
import zipfile
from collections.abc import Iterable, Iterator

from vision.utils.download.lock import FileLock

_TAR_EXTS = ('.tar', '.gz', '.tgz', '.tar.gz', '.bz2', '.tbz2', '.tar.bz2', '.xz', '.txz',
             '.tar.xz')
_TEMP_PREFIX = '.extracting-'
_LOCK_NAME = '.extract.lock'


class UnsafeArchiveError(ValueError):
    """An archive member would be written, or would link, outside the destination.

    Attributes:
        member (str): The member's name in the archive.

    """

    def __init__(self, archive: str, member: str, problem: str) -> None:
        self.archive = archive
        self.member = member
        self.problem = problem
        super().__init__(f'extractall: refusing to extract {archive}: member {member!r} '
                         f'{problem}; nothing was extracted')

    def __reduce__(self):
        return type(self), (self.archive, self.member, self.problem)


def extractall(file_path: str | os.PathLike, destination: str | os.PathLike,
               ext: str | None = None) -> None:
    """Extracts an archive file under a directory.

    As ChainerCV's ``chainercv.utils.extractall``, with two guarantees it lacked:

    - **Safety.** A member whose path is absolute or climbs out with ``..``, a symbolic link or
      hard link whose target lies outside, or a device or FIFO, makes the whole call fail with
      :class:`UnsafeArchiveError` naming the member; nothing is written outside
      ``destination``. Links are judged against what is already extracted (``os.path.realpath``),
      so a chain of innocent-looking links cannot climb out either.
    - **All or nothing.** Members are extracted into a temporary directory
      ``destination/.extracting-*`` and moved into ``destination`` only when the archive has
      been read to its end. Each top-level directory new to ``destination`` arrives with one
      ``os.replace``; directories that exist already (``VOCdevkit/`` shared by two VOC
      archives) are merged into, file by file. An interrupted extraction leaves only the
      temporary directory, so a check such as "does ``VOCdevkit/VOC2012/ImageSets`` exist"
      never sees half an archive. A lock on ``destination/.extract.lock`` serialises
      extractions into one destination, and leftovers of killed ones are removed by the next.

    Args:
        file_path (str): The path of the archive.
        destination (str): A directory path, created if needed; the archive's members are
            extracted under it.
        ext (str or None): The archive's extension: ``'.zip'``, or for tar archives
            ``'.tar'``, ``'.gz'``, ``'.tgz'``, ``'.tar.gz'``, ``'.bz2'``, ``'.tbz2'``,
            ``'.tar.bz2'``, ``'.xz'``, ``'.txz'`` or ``'.tar.xz'`` (the compression of a tar is
            detected from its content). None takes it from ``file_path``.

    Raises:
        UnsafeArchiveError: A member would land or link outside ``destination``.
        ValueError: ``ext`` is not one of the above.

    """
    file_path = os.fspath(file_path)
    kind = _kind(file_path, ext)
    destination = os.path.abspath(os.fspath(destination))
    os.makedirs(destination, exist_ok=True)
    with FileLock(os.path.join(destination, _LOCK_NAME)):
        for stale in glob.glob(os.path.join(glob.escape(destination), _TEMP_PREFIX + '*')):
            shutil.rmtree(stale, ignore_errors=True)
        temp = tempfile.mkdtemp(prefix=_TEMP_PREFIX, dir=destination)
        try:
            if kind == 'zip':
                _extract_zip(file_path, temp)
            else:
                _extract_tar(file_path, temp)
            _merge(temp, destination)
        finally:
            shutil.rmtree(temp, ignore_errors=True)


def _kind(file_path: str, ext: str | None) -> str:
    if ext is None:
        name = file_path.lower()
        if name.endswith('.zip'):
            return 'zip'
        if name.endswith(_TAR_EXTS):
            return 'tar'
        raise ValueError(f'extractall: cannot tell the archive type of {file_path!r} from its '
                         f'name; pass ext, one of {("zip", *_TAR_EXTS)}')
    if ext == '.zip':
        return 'zip'
    if ext in _TAR_EXTS:
        return 'tar'
    raise ValueError(f'extractall: ext must be one of {(".zip", *_TAR_EXTS)} or None, '
                     f'but got {ext!r}')


def _extract_zip(file_path: str, temp: str) -> None:
    root = os.path.realpath(temp)
    with zipfile.ZipFile(file_path) as archive:
        members = archive.infolist()
        for info in members:
            _refuse_outside(file_path, info.filename, os.path.join(root, info.filename), root,
                            'would be written to')
        archive.extractall(temp, members)


def _extract_tar(file_path: str, temp: str) -> None:
    with tarfile.open(file_path, 'r:*') as archive:
        members = _checked_tar_members(file_path, archive, os.path.realpath(temp))
        if hasattr(tarfile, 'data_filter'):
            archive.extractall(temp, members, filter='data')
        else:
            archive.extractall(temp, members)


def _checked_tar_members(file_path: str, members: Iterable[tarfile.TarInfo],
                         root: str) -> Iterator[tarfile.TarInfo]:
    """Yields the members one at a time, each checked just before ``extractall`` writes it, so
    that links are resolved through what the earlier members created."""
    for member in members:
        target = os.path.join(root, member.name)
        _refuse_outside(file_path, member.name, target, root, 'would be written to')
        if member.issym():
            link = os.path.join(os.path.dirname(target), member.linkname)
            _refuse_outside(file_path, member.name, link, root,
                            f'is a symbolic link to {member.linkname!r}, which resolves to')
        elif member.islnk():
            link = os.path.join(root, member.linkname)
            _refuse_outside(file_path, member.name, link, root,
                            f'is a hard link to {member.linkname!r}, which resolves to')
        elif not (member.isfile() or member.isdir()):
            raise UnsafeArchiveError(file_path, member.name,
                                     'is a device or FIFO, not a file, directory or link')
        yield member


def _refuse_outside(file_path: str, name: str, path: str, root: str, what: str) -> None:
    """Raises unless ``path`` resolves inside ``root``, the temporary directory; the message
    shows where it would have gone had the archive been extracted into the destination, the
    parent of ``root``."""
    real = os.path.realpath(path)
    if os.path.commonpath([real, root]) != root:
        destination = os.path.dirname(root)
        shown = os.path.normpath(os.path.join(destination, os.path.relpath(real, root)))
        raise UnsafeArchiveError(file_path, name,
                                 f'{what} {shown}, outside the destination {destination}')


def _merge(source: str, destination: str) -> None:
    """Moves the tree ``source`` into ``destination``, merging into directories that exist."""
    for entry in os.scandir(source):
        target = os.path.join(destination, entry.name)
        is_dir = entry.is_dir(follow_symlinks=False)
        if is_dir and os.path.isdir(target):
            _merge(entry.path, target)
            continue
        if os.path.isdir(target) and not os.path.islink(target):
            shutil.rmtree(target)
        elif is_dir and os.path.lexists(target):
            os.remove(target)
        os.replace(entry.path, target)

"""Writing a file atomically: readers see the old file or the whole new one, never a part."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile


@contextlib.contextmanager
def atomic_write(path):
    """Opens a temporary file next to ``path`` for binary writing, and puts it in place.

    The temporary file lives in the directory of ``path`` (so that :func:`os.replace` is a
    rename within one file system). When the block ends normally, the file is flushed to disk
    and renamed onto ``path``; when it raises, the temporary file is removed and ``path`` is
    left as it was. The new file gets the permissions of the one it replaces, or the
    process's default ones.
    """
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f'.{os.path.basename(path)}.',
                               suffix='.tmp')
    try:
        with os.fdopen(fd, 'wb') as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_for(path))
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _mode_for(path: str) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask

"""An exclusive lock between processes and threads, held on a lock file."""

from __future__ import annotations

import os
import time

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt


class FileLock:
    """An exclusive, blocking lock on ``path``, used as a context manager.

    On POSIX it is ``flock(2)`` on a descriptor opened for this lock only. Because such a lock
    belongs to the open file description, two threads of one process that each enter their own
    ``FileLock`` on one path exclude each other, exactly as two processes do; and the kernel drops
    the lock when its holder exits or is killed, so a crash never leaves a stale lock behind (the
    lock file itself stays, empty, and is reused). Locks on NFS work where the server supports
    ``flock`` (Linux emulates it with POSIX record locks). On Windows the first byte of the file
    is locked with ``msvcrt.locking``.

    The lock file is never deleted: deleting it while another process waits on it would let a
    third process lock a new file of the same name, and two holders would run at once.

    An object is one acquisition: it is not re-entrant and must not be shared between threads;
    make one per ``with`` block.

    Args:
        path (str): The lock file; it is created if missing, its directory must exist.

    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = os.fspath(path)
        self._fd: int | None = None

    def __enter__(self) -> FileLock:
        if self._fd is not None:
            raise RuntimeError(f'FileLock: {self.path} is already held by this object')
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            _lock(fd)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd
        return self

    def __exit__(self, *exc_info) -> None:
        fd, self._fd = self._fd, None
        try:
            _unlock(fd)
        finally:
            os.close(fd)


def _lock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)
        return
    while True:
        try:
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)  # retries for about 10 s, then raises
            return
        except OSError:
            time.sleep(0.1)


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    else:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

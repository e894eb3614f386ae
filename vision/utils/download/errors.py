"""Errors raised when a file cannot be downloaded or does not match its hash."""

from __future__ import annotations


class DownloadError(OSError):
    """A file could not be fetched: the network failed, the server refused, or offline mode is on.

    It is an :class:`OSError`, as Chainer's ``cached_download`` raises for a cache it cannot
    create, so ``except OSError`` keeps working. The message names the URL, the reason, and the
    exact path where the user may place the file by hand (downloaded with a browser, copied from
    another machine) so that the next call finds it without touching the network.

    Attributes:
        url (str): The URL that was tried.
        reason (str): Why it failed, e.g. ``'HTTP 404 Not Found'``.
        path (str): Where the file is expected; a file placed there is used as is.
        sha256 (str or None): The hash the file must have, if one was given.

    """

    def __init__(self, url: str, reason: str, path: str, sha256: str | None = None,
                 fname: str = 'download_file') -> None:
        self.url = url
        self.reason = reason
        self.path = path
        self.sha256 = sha256
        self.fname = fname
        super().__init__(self._message())

    def _message(self) -> str:
        hash_text = f' (its sha256 must be {self.sha256})' if self.sha256 else ''
        return (f'{self.fname}: could not download {self.url}: {self.reason}. '
                f'To install it by hand, fetch the file by other means and place it at '
                f'{self.path}{hash_text}')

    def __reduce__(self):
        return type(self), (self.url, self.reason, self.path, self.sha256, self.fname)


class HashMismatchError(DownloadError):
    """The bytes fetched (or found in the cache) do not have the expected sha256.

    A downloaded file that fails the check is deleted before it enters the cache. A file that
    was already at the cached path (for example placed there by hand) is left alone, and the
    message says so: delete or replace it.

    Attributes:
        path (str): The file checked.
        expected (str): The sha256 that was asked for.
        actual (str): The sha256 of the bytes received.

    """

    def __init__(self, url: str, path: str, expected: str, actual: str, in_cache: bool = False,
                 fname: str = 'download_file') -> None:
        self.path = path
        self.expected = expected
        self.actual = actual
        self.in_cache = in_cache
        if in_cache:
            reason = (f'the file already at {path} has sha256 {actual}, but {expected} was '
                      f'expected; delete it to download it again')
        else:
            reason = (f'the bytes received have sha256 {actual}, but {expected} was expected; '
                      f'nothing was written to the cache')
        super().__init__(url, reason, path, expected, fname)

    def __reduce__(self):
        return type(self), (self.url, self.path, self.expected, self.actual, self.in_cache,
                            self.fname)


class CorruptDownloadError(DownloadError):
    """The bytes fetched failed the caller's check of their content (an archive that is cut
    short or damaged, an HTML page in place of the file); they never entered the cache.

    Attributes:
        problem (str): what is wrong with them, e.g. ``'not a valid NPZ file: ...'``.

    """

    def __init__(self, url: str, path: str, problem: str, fname: str = 'download_file') -> None:
        self.problem = problem
        super().__init__(url, f'the bytes received are {problem}; nothing was written to the '
                              'cache', path, None, fname)

    def __reduce__(self):
        return type(self), (self.url, self.path, self.problem, self.fname)

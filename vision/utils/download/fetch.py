"""Fetching one URL into one file: lock, resume, retries, sha256 check, atomic replacement.

The steps, for a target ``path``:

1. Lock ``path + '.lock'`` (:class:`~vision.utils.download.lock.FileLock`), so that of several
   threads or processes asking for one file, one downloads and the others wait and reuse it.
2. If ``path`` exists, it is the answer (checked against ``sha256`` when one is given). Nothing
   else ever creates ``path``, apart from a user placing the file there by hand.
3. Otherwise receive the bytes into ``path + '.part'`` in the same directory. A ``.part`` left by
   an interrupted call, or by a connection that broke, is resumed with an HTTP ``Range`` request;
   a server that ignores ``Range`` (status 200) gets the file written again from the start.
   Connection errors, timeouts, a body shorter than its ``Content-Length``, HTTP 5xx and 429 are
   retried with exponential back-off (``backoff * 2 ** k`` seconds, at most 60); a retry that
   got further than any before it starts the count afresh. Other HTTP errors fail at once.
4. Verify the ``.part``: its sha256 when one is given, and its content with the caller's
   ``check`` when one is given (an archive must open, with every CRC correct: the only test
   of a file whose publisher gives no hash and whose server gives no ``Content-Length``). On a
   failure delete it (and, if it had been resumed from an earlier call's leftovers, which may
   come from another version of the file, download it once more in full before giving up), so
   a wrong file never enters the cache. Without a ``sha256`` or a ``check`` a leftover from
   another version of the file cannot be told apart: pass one.
5. ``os.replace`` the ``.part`` onto ``path``: readers see either no file or the whole file.

Requests reads proxies (``HTTPS_PROXY``, ``NO_PROXY``...) and ``.netrc`` from the environment;
that is left on. ``VISION_OFFLINE=1`` forbids the network: missing files raise
:class:`~vision.utils.download.errors.DownloadError` at once.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Callable

import requests
import urllib3

from vision.utils.download.errors import CorruptDownloadError, DownloadError, HashMismatchError
from vision.utils.download.lock import FileLock
from vision.utils.download.progress import Progress, make_progress
from vision.utils.download.root import is_offline

_CHUNK = 1 << 16
_MAX_BACKOFF = 60.0
_SHA256 = re.compile(r'[0-9a-fA-F]{64}')
_TRANSIENT = (requests.ConnectionError, requests.Timeout,
              requests.exceptions.ChunkedEncodingError)


class _Transient(Exception):
    """A failure worth retrying: HTTP 5xx or 429, or a body cut short."""


class _Fatal(Exception):
    """A failure that retrying will not fix: HTTP 4xx, an unexpected status."""


class _Restart(Exception):
    """The partial file cannot be resumed; it was deleted and the next attempt starts over."""


def download_file(url: str, path: str | os.PathLike, sha256: str | None = None, *,
                  retries: int = 4, backoff: float = 1.0, timeout: float = 30.0,
                  progress: bool | None = None,
                  check: Callable[[str], str | None] | None = None) -> str:
    """Downloads ``url`` to ``path``, unless ``path`` already exists.

    See the module docstring for the steps: lock, resume, retries, hash check, atomic rename.

    Args:
        url (str): An ``http://`` or ``https://`` URL.
        path (str): Where the file goes. Its directory is created; ``path + '.part'`` and
            ``path + '.lock'`` are used beside it.
        sha256 (str or None): The expected sha256, 64 hexadecimal digits (any case). The file
            is checked before it is moved to ``path``, and an existing ``path`` is checked too.
        retries (int): How many times a transient failure is retried.
        backoff (float): The first wait between attempts in seconds; it doubles each time.
        timeout (float): Seconds to wait for the connection and for each read.
        progress (bool or None): None draws a progress bar on standard error when it is a
            terminal and writes whole lines otherwise; True always draws the bar; False is silent.
        check (callable or None): ``check(part)`` is given the path of the bytes received and
            returns None when they are good, else what is wrong with them, worded to follow
            "the bytes received are" (``'not a valid NPZ file: ...'``). It runs before the file
            is moved to ``path``, never on a file already there.

    Returns:
        str: The absolute path of the file.

    Raises:
        DownloadError: The file could not be fetched. The message names the URL, the reason
            and the path where the file may be placed by hand.
        HashMismatchError: The file does not have the expected sha256.
        CorruptDownloadError: The bytes received failed ``check``.

    """
    return fetch('download_file', url, path, sha256, retries=retries, backoff=backoff,
                 timeout=timeout, progress=progress, check=check)


def fetch(fname: str, url: str, path: str | os.PathLike, sha256: str | None, *, retries: int,
          backoff: float, timeout: float, progress: bool | None,
          check: Callable[[str], str | None] | None = None) -> str:
    """:func:`download_file`, with errors that name the public function ``fname``."""
    _check_args(fname, url, sha256, retries, backoff, timeout)
    sha256 = None if sha256 is None else sha256.lower()
    path = os.path.abspath(os.fspath(path))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with FileLock(path + '.lock'):
        if os.path.exists(path):
            if sha256 is not None:
                actual = file_sha256(path)
                if actual != sha256:
                    raise HashMismatchError(url, path, sha256, actual, True, fname)
            return path
        if is_offline():
            raise DownloadError(url, 'the network is off ($VISION_OFFLINE is set)', path,
                                sha256, fname)
        part = path + '.part'
        report = make_progress(progress, url, path)
        left_over = os.path.exists(part)
        with requests.Session() as session:
            try:
                _receive(session, url, part, retries, backoff, timeout, report)
                refusal = _verify(fname, url, path, part, sha256, check)
                if refusal is not None and left_over:
                    if report is not None:
                        report.note('the partial file left by an earlier call fails its check; '
                                    'downloading the whole file again')
                    os.remove(part)
                    _receive(session, url, part, retries, backoff, timeout, report)
                    refusal = _verify(fname, url, path, part, sha256, check)
            except (_Fatal, _Transient, requests.RequestException) as e:
                if report is not None:
                    report.note('failed')
                raise DownloadError(url, _reason(e, part), path, sha256, fname) from e
        if refusal is not None:
            os.remove(part)
            raise refusal
        os.replace(part, path)
        if report is not None:
            report.finish()
    return path


def file_sha256(path: str | os.PathLike) -> str:
    """Returns the sha256 of a file's contents as 64 lowercase hexadecimal digits."""
    digest = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            digest.update(block)
    return digest.hexdigest()


def _verify(fname: str, url: str, path: str, part: str, sha256: str | None,
            check: Callable[[str], str | None] | None) -> DownloadError | None:
    """The error that refuses the bytes received into ``part``, or None if they pass."""
    if sha256 is not None and (actual := file_sha256(part)) != sha256:
        return HashMismatchError(url, path, sha256, actual, False, fname)
    problem = None if check is None else check(part)
    return None if problem is None else CorruptDownloadError(url, path, problem, fname)


def _check_args(fname, url, sha256, retries, backoff, timeout) -> None:
    if not isinstance(url, str) or not url.startswith(('http://', 'https://')):
        raise ValueError(f'{fname}: url must be an http:// or https:// URL, but got {url!r}')
    if sha256 is not None and not (isinstance(sha256, str) and _SHA256.fullmatch(sha256)):
        raise ValueError(f'{fname}: sha256 must be None or 64 hexadecimal digits, '
                         f'but got {sha256!r}')
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError(f'{fname}: retries must be an int >= 0, but got {retries!r}')
    if not backoff >= 0:
        raise ValueError(f'{fname}: backoff must be >= 0, but got {backoff!r}')
    if not timeout > 0:
        raise ValueError(f'{fname}: timeout must be > 0, but got {timeout!r}')


def _receive(session: requests.Session, url: str, part: str, retries: int, backoff: float,
             timeout: float, report: Progress | None) -> None:
    """Fills ``part`` with the whole file, resuming and retrying as the module docstring says."""
    failures = 0
    best = _size(part)
    while True:
        try:
            _attempt(session, url, part, timeout, report)
            return
        except _Restart:
            continue
        except requests.exceptions.SSLError:
            raise
        except (_Transient, *_TRANSIENT) as e:
            error = e
        if _size(part) > best:
            best = _size(part)
            failures = 0
        if failures == retries:
            raise _Transient(f'{_describe(error)} (gave up after {retries + 1} attempts '
                             f'in a row without progress)') from error
        delay = min(backoff * 2 ** failures, _MAX_BACKOFF)
        failures += 1
        if report is not None:
            report.note(f'{_describe(error)}; retry {failures} of {retries} in {delay:.1f} s')
        time.sleep(delay)


def _attempt(session: requests.Session, url: str, part: str, timeout: float,
             report: Progress | None) -> None:
    """One request: appends to ``part`` after a 206 that starts where it ends, rewrites it
    after a 200."""
    offset = _size(part)
    headers = {'Accept-Encoding': 'identity'}
    if offset:
        headers['Range'] = f'bytes={offset}-'
    with session.get(url, headers=headers, stream=True, timeout=timeout) as response:
        status = response.status_code
        if status == 416 and offset:
            if _content_range(response)[2] == offset:
                return
            os.remove(part)
            raise _Restart
        if status >= 500 or status == 429:
            raise _Transient(f'HTTP {status} {response.reason}')
        if status not in (200, 206):
            raise _Fatal(f'HTTP {status} {response.reason}')
        if status == 206:
            start, _, total = _content_range(response)
            if start != offset:
                if not offset:
                    raise _Fatal(f'HTTP 206 for bytes from {start} when the whole file was '
                                 f'asked for')
                os.remove(part)
                raise _Restart
        else:
            start, total = 0, None
        length = response.headers.get('Content-Length')
        if total is None and length is not None and length.isdigit():
            total = start + int(length)
        if report is not None:
            report.start(total, start)
        # read1 (urllib3 >= 2) returns what has arrived, so a broken connection loses no byte
        # that reached us; read waits for whole chunks.
        read = getattr(response.raw, 'read1', response.raw.read)
        with open(part, 'ab' if start else 'wb') as f:
            try:
                while chunk := read(_CHUNK, decode_content=False):
                    f.write(chunk)
                    if report is not None:
                        report.update(len(chunk))
            except (requests.RequestException, urllib3.exceptions.HTTPError) as e:
                raise _Transient(f'the connection broke after {f.tell()} of '
                                 f'{total or "?"} bytes ({type(e).__name__})') from e
            f.flush()
            os.fsync(f.fileno())
            size = f.tell()
    if total is not None and size < total:
        raise _Transient(f'the connection closed after {size} of {total} bytes')


def _content_range(response: requests.Response) -> tuple[int | None, int | None, int | None]:
    """Parses ``Content-Range: bytes START-END/TOTAL`` (or ``bytes */TOTAL``)."""
    match = re.fullmatch(r'bytes\s+(?:(\d+)-(\d+)|\*)/(\d+|\*)',
                         response.headers.get('Content-Range', '').strip())
    if match is None:
        return None, None, None
    return tuple(None if g is None or g == '*' else int(g) for g in match.groups())


def _size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except FileNotFoundError:
        return 0


def _describe(error: BaseException) -> str:
    """A short reason: the innermost system error (``ConnectionRefusedError: Connection
    refused``) if there is one, else the error itself."""
    if isinstance(error, (_Transient, _Fatal)):
        return str(error)
    seen, queue = set(), [error]
    while queue:
        e = queue.pop(0)
        if id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, OSError) and e.strerror:
            return f'{type(e).__name__}: {e.strerror}'
        nested = [*e.args, getattr(e, 'reason', None), e.__cause__, e.__context__]
        queue.extend(n for n in nested if isinstance(n, BaseException))
    return f'{type(error).__name__}: {error}'


def _reason(error: BaseException, part: str) -> str:
    kept = _size(part)
    if not kept:
        return _describe(error)
    return (f'{_describe(error)}; the {kept} bytes received are kept in {part} and the next '
            f'call resumes from them')

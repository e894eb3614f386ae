"""Chainer's and ChainerCV's download entry points, on top of :func:`download_file`."""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

from vision.utils.download.fetch import fetch
from vision.utils.download.root import get_vision_home


def cached_download(url: str, sha256: str | None = None, *, retries: int = 4,
                    backoff: float = 1.0, timeout: float = 30.0,
                    progress: bool | None = None,
                    check: Callable[[str], str | None] | None = None) -> str:
    """Downloads a file and caches it, or returns the cached copy.

    As Chainer's ``chainer.dataset.download.cached_download`` (and ChainerCV's, which adds the
    progress report): a URL is downloaded once, and later calls return the path of the cached
    file. The cache is :func:`cached_path`. The download is resumed, retried, verified and
    moved into place atomically, under a lock (see :mod:`vision.utils.download.fetch`).

    Args:
        url (str): URL to download from.
        sha256 (str or None): The expected sha256 of the file. A file that does not match
            never enters the cache; a cached file is checked again at every call.
        retries, backoff, timeout, progress, check: As in :func:`download_file`.

    Returns:
        str: Path to the downloaded file.

    Raises:
        DownloadError: The file could not be downloaded; the message says where to place it by
            hand.
        HashMismatchError: The file does not have the expected sha256.
        CorruptDownloadError: The bytes received failed ``check``.

    """
    return fetch('cached_download', url, cached_path(url), sha256, retries=retries,
                 backoff=backoff, timeout=timeout, progress=progress, check=check)


def cached_path(url: str) -> str:
    """Where :func:`cached_download` keeps the file of ``url``:
    ``$VISION_HOME/downloads/<key>/<name>``, where ``<key>`` is :func:`url_key` and ``<name>``
    :func:`url_file_name`, so the file keeps its name and extension. The file may not exist."""
    return os.path.join(get_vision_home(), 'downloads', url_key(url), url_file_name(url))


def download_model(url: str, sha256: str | None = None, *, retries: int = 4,
                   backoff: float = 1.0, timeout: float = 30.0,
                   progress: bool | None = None) -> str:
    """Downloads a model file into the models directory, or returns the copy already there.

    As ChainerCV's ``chainercv.utils.download_model``: the file of
    ``http://example.com/subdir/model.npz`` goes to ``$VISION_HOME/models/model.npz`` (ChainerCV
    used ``$CHAINER_DATASET_ROOT/pfnet/chainercv/models``). It is fetched straight there, without
    a second copy in the download cache. Two URLs with one file name share one path.

    Args:
        url (str): URL to download from.
        sha256 (str or None): The expected sha256 of the file, checked before the file is
            moved into place and again at every call.
        retries, backoff, timeout, progress: As in :func:`download_file`.

    Returns:
        str: Path to the downloaded file.

    Raises:
        DownloadError: The file could not be downloaded; the message says where to place it by
            hand.
        HashMismatchError: The file does not have the expected sha256.

    """
    path = os.path.join(get_vision_home(), 'models', url_file_name(url))
    return fetch('download_model', url, path, sha256, retries=retries, backoff=backoff,
                 timeout=timeout, progress=progress)


def url_key(url: str) -> str:
    """The first 16 hexadecimal digits of the sha256 of ``url``: the cache directory's name."""
    return hashlib.sha256(str(url).encode('utf-8')).hexdigest()[:16]


def url_file_name(url: str) -> str:
    """The last component of the URL's path, made safe as a file name.

    Characters other than letters, digits, ``.``, ``-`` and ``_`` become ``_``; leading dots are
    dropped (no hidden files, no ``..``); an empty name becomes ``download``.
    """
    name = unquote(posixpath.basename(urlsplit(str(url)).path))
    name = re.sub(r'[^\w.-]', '_', name, flags=re.ASCII).lstrip('.')[:200]
    return name or 'download'

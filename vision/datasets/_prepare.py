"""Downloading a published archive once, verifying it and extracting it into the dataset root."""

from __future__ import annotations

import gzip
import hashlib
import lzma
import os
import tarfile
import zipfile
import zlib

from vision.utils.download import (
    DownloadError,
    FileLock,
    cached_download,
    extractall,
    get_dataset_directory,
)

_CORRUPT = (tarfile.TarError, zipfile.BadZipFile, EOFError, zlib.error, gzip.BadGzipFile,
            lzma.LZMAError)
_ALGORITHMS = ('md5', 'sha1', 'sha256')


def prepare_dataset(fname: str, dataset_name: str, url: str, marker: str,
                    checksum: tuple[str, str] | None = None) -> str:
    """Makes sure that the archive at ``url`` is extracted in a dataset directory.

    Nothing is fetched when ``marker`` exists already. Otherwise the archive is downloaded
    into the cache (:func:`~vision.utils.download.cached_download`), checked against
    ``checksum``, and extracted all at once (:func:`~vision.utils.download.extractall`), so
    that ``marker``, a top-level directory of the archive, appears only when it is complete.
    A lock serialises processes preparing the same dataset.

    Args:
        fname (str): The public name to put in error messages, e.g. ``'CamVidDataset'``.
        dataset_name (str): The directory under the dataset root, e.g. ``'camvid'``.
        url (str): The official URL of the archive.
        marker (str): A path relative to the dataset directory that exists once the archive
            is extracted.
        checksum (tuple of str): ``(algorithm, hexdigest)`` with algorithm ``'md5'``,
            ``'sha1'`` or ``'sha256'``, or None to skip the check.

    Returns:
        str: The dataset directory, ``get_dataset_directory(dataset_name)``.

    Raises:
        DownloadError: The archive could not be downloaded, or it does not have the expected
            checksum; a file with the wrong checksum is deleted from the cache.
        ValueError: The archive is corrupt (it is deleted from the cache and nothing is
            extracted), or it does not hold ``marker``.

    """
    if checksum is not None and checksum[0] not in _ALGORITHMS:
        raise ValueError(f'prepare_dataset: the checksum algorithm must be one of '
                         f'{_ALGORITHMS}, but got {checksum[0]!r}')
    root = get_dataset_directory(dataset_name)
    with FileLock(os.path.join(root, '.prepare.lock')):
        if os.path.exists(os.path.join(root, marker)):
            return root
        algorithm, digest = checksum if checksum is not None else (None, None)
        path = cached_download(url, digest if algorithm == 'sha256' else None)
        if algorithm in ('md5', 'sha1'):
            _verify(fname, url, path, algorithm, digest.lower())
        try:
            extractall(path, root)
        except _CORRUPT as e:
            os.remove(path)
            raise ValueError(
                f'{fname}: the archive {path} downloaded from {url} is corrupt or truncated '
                f'({type(e).__name__}: {e}); it was deleted from the cache and nothing was '
                f'extracted, so the next call downloads it again') from e
        if not os.path.exists(os.path.join(root, marker)):
            raise ValueError(
                f'{fname}: the archive {path} downloaded from {url} does not hold {marker}; '
                f'it is not the archive this dataset expects')
    return root


def _verify(fname: str, url: str, path: str, algorithm: str, expected: str) -> None:
    """Deletes ``path`` and raises :class:`DownloadError` unless its digest is ``expected``."""
    with open(path, 'rb') as f:
        actual = hashlib.file_digest(f, algorithm).hexdigest()
    if actual != expected:
        os.remove(path)
        raise DownloadError(url, f'the file has {algorithm} {actual}, but {expected} was '
                            f'expected; it was deleted from the cache', path, None, fname)

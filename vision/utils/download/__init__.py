"""Downloads into the cache under ``$VISION_HOME`` and safe archive extraction.

Chainer's and ChainerCV's names (``cached_download``, ``download_model``, ``extractall``,
``get_dataset_root``, ``set_dataset_root``, ``get_dataset_directory``), each taking an optional
``sha256``; :func:`download_file` for a target path of one's own.
"""

from vision.utils.download.cache import (
    cached_download,
    cached_path,
    download_model,
    url_file_name,
    url_key,
)
from vision.utils.download.errors import CorruptDownloadError, DownloadError, HashMismatchError
from vision.utils.download.extract import UnsafeArchiveError, extractall
from vision.utils.download.fetch import download_file, file_sha256
from vision.utils.download.lock import FileLock
from vision.utils.download.root import (
    get_dataset_directory,
    get_dataset_root,
    get_vision_home,
    set_dataset_root,
)

__all__ = [
    'CorruptDownloadError', 'DownloadError', 'FileLock', 'HashMismatchError',
    'UnsafeArchiveError', 'cached_download', 'cached_path', 'download_file', 'download_model',
    'extractall', 'file_sha256', 'get_dataset_directory', 'get_dataset_root', 'get_vision_home',
    'set_dataset_root', 'url_file_name', 'url_key',
]

"""Where downloads, models and datasets live on disk.

Everything sits under one directory, ``$VISION_HOME``, which defaults to
``$XDG_CACHE_HOME/vision`` and, without that variable, to ``~/.cache/vision``::

    $VISION_HOME/
        downloads/<key>/<file name>   cached_download: <key> is 16 hex digits of the URL's sha256
        models/<file name>            download_model
        datasets/<dataset name>/      get_dataset_directory (the root moves with set_dataset_root)

The environment is read at every call, so a variable set after import takes effect.
"""

from __future__ import annotations

import os

_dataset_root: str | None = None


def get_vision_home() -> str:
    """Returns the root of the cache, ``$VISION_HOME`` (default ``~/.cache/vision``).

    Returns:
        str: An absolute path; the directory is not created.

    """
    home = os.environ.get('VISION_HOME')
    if not home:
        cache = os.environ.get('XDG_CACHE_HOME') or os.path.join('~', '.cache')
        home = os.path.join(cache, 'vision')
    return os.path.abspath(os.path.expanduser(home))


def get_dataset_root() -> str:
    """Returns the directory under which datasets are downloaded and extracted.

    It is ``$VISION_HOME/datasets`` unless :func:`set_dataset_root` chose another one (Chainer's
    ``chainer.dataset.get_dataset_root``, with ``$VISION_HOME`` in place of
    ``$CHAINER_DATASET_ROOT``).

    Returns:
        str: The path to the dataset root directory.

    """
    if _dataset_root is not None:
        return _dataset_root
    return os.path.join(get_vision_home(), 'datasets')


def set_dataset_root(path: str | os.PathLike | None) -> None:
    """Sets the directory under which datasets are downloaded and extracted.

    Args:
        path (str or None): The new dataset root; None goes back to ``$VISION_HOME/datasets``.

    """
    global _dataset_root
    _dataset_root = None if path is None else os.path.abspath(os.fspath(path))


def get_dataset_directory(dataset_name: str, create_directory: bool = True) -> str:
    """Returns the directory of one dataset: the dataset root joined with ``dataset_name``.

    Args:
        dataset_name (str): Name of the dataset; slashes separate sub-directories, e.g.
            ``'pfnet/chainercv/voc'``.
        create_directory (bool): If True (the default), the directory is created when it does
            not exist yet.

    Returns:
        str: Path to the dataset directory.

    """
    if not isinstance(dataset_name, str):
        raise TypeError(f'get_dataset_directory: dataset_name must be a str, '
                        f'but got {type(dataset_name).__name__}')
    path = os.path.join(get_dataset_root(), dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


def is_offline() -> bool:
    """Tells whether ``$VISION_OFFLINE`` forbids network access (``1``, ``true`` or ``yes``)."""
    return os.environ.get('VISION_OFFLINE', '').strip().lower() in ('1', 'true', 'yes')

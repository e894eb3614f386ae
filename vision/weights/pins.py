"""Trust on first use for the files whose publisher gives no hash (ChainerCV's): the sha256 of
the first download of a URL is recorded in ``$VISION_HOME/pins.json``, and a later download of
the URL that differs (the cache was cleared, ``vision download --force``) is reported with a
:class:`WeightChangedWarning`. The file is ``{"format_version": 1, "sha256": {url: sha256}}``,
rewritten atomically under a lock.
"""

from __future__ import annotations

import json
import os
import tempfile
import warnings

from vision.utils.download import FileLock, get_vision_home

_WHO = 'vision.weights'


class WeightChangedWarning(UserWarning):
    """A file without a published hash was downloaded again, and differs from its first
    download: the publisher replaced it, or someone on the way did."""


def pins_path() -> str:
    """The file of the recorded hashes, ``$VISION_HOME/pins.json``."""
    return os.path.join(get_vision_home(), 'pins.json')


def pin_download(url: str, sha256: str, path: str) -> None:
    """Records the sha256 of the first download of ``url``, or compares a later one with it.

    The first download warns (a :class:`UserWarning`) that the file was trusted on first use;
    a later one with another sha256 warns with a :class:`WeightChangedWarning`, and the first
    hash stays recorded.

    Args:
        url (str): where the file comes from.
        sha256 (str): the sha256 of the bytes received.
        path (str): where the file is cached.

    Raises:
        ValueError: the file of pins cannot be read; the message says to delete it.
    """
    pins = pins_path()
    os.makedirs(os.path.dirname(pins), exist_ok=True)
    with FileLock(pins + '.lock'):
        recorded = _read(pins)
        first = recorded.get(url)
        if first is None:
            _write(pins, {**recorded, url: sha256})
    if first is None:
        warnings.warn(f'{_WHO}: {url} comes without a published hash: its sha256 {sha256} was '
                      f'recorded in {pins} (trust on first use), and later downloads of it '
                      'are compared with it', stacklevel=2)
    elif first != sha256:
        warnings.warn(WeightChangedWarning(
            f'{_WHO}: {url} has changed since its first download: its sha256 is now {sha256}, '
            f'but {first} was recorded in {pins}. The publisher may have replaced the file, or '
            f'the download was tampered with: check before trusting {path}; if the change is '
            f'expected, delete the entry of the URL from {pins}'), stacklevel=2)


def _read(pins: str) -> dict[str, str]:
    try:
        with open(pins, encoding='utf-8') as f:
            data = json.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as e:
        raise ValueError(f'{_WHO}: {pins} is not a file of pins ({e}); delete it to record the '
                         'hashes afresh') from None
    recorded = data.get('sha256') if isinstance(data, dict) else None
    if not isinstance(recorded, dict) or data.get('format_version') != 1:
        raise ValueError(f'{_WHO}: {pins} is not a file of pins (format_version 1 with a '
                         '"sha256" object); delete it to record the hashes afresh')
    return recorded


def _write(pins: str, recorded: dict[str, str]) -> None:
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(pins), suffix='.part')
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            json.dump({'format_version': 1, 'sha256': recorded}, f, indent=1, sort_keys=True)
        os.replace(tmp, pins)
    except BaseException:
        os.remove(tmp)
        raise

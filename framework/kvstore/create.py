"""create: a KVStore chosen by name (MXNet's ``mx.kv.create``)."""

from __future__ import annotations

from framework.kvstore.dist_kvstore import DistKVStore
from framework.kvstore.kvstore import KVStore

_LOCAL_TYPES = ('local', 'device')
_DIST_TYPES = ('dist_sync', 'dist_device_sync')


def create(name: str = 'local') -> KVStore:
    """Creates a key-value store.

    Args:
        name: ``'local'`` (values summed and kept in host memory), ``'device'`` (summed and
            kept on the devices the values come from), ``'dist_sync'`` or
            ``'dist_device_sync'`` (the same over the processes of an MPI job, by
            all-reduce; needs the ``dist`` extra).

    Returns:
        KVStore: the store.

    Raises:
        ValueError: an unknown name.
    """
    if name in _LOCAL_TYPES:
        return KVStore(name)
    if name in _DIST_TYPES:
        return DistKVStore(name)
    raise ValueError(f'create: name must be one of '
                     f'{", ".join(map(repr, _LOCAL_TYPES + _DIST_TYPES))}, but got {name!r}')

"""Key-value stores of parameters for data-parallel training, with MXNet's API and names.

- :func:`create`: ``'local'``, ``'device'``, ``'dist_sync'``, ``'dist_device_sync'``.
- :class:`KVStore`: ``init``, ``push``, ``pull``, ``pushpull``, ``set_optimizer``,
  ``save_optimizer_states``/``load_optimizer_states``, ``wait_to_read``; ``push`` and
  ``pull`` run on the dependency engine (see :mod:`framework.kvstore.kvstore` for when their
  results are ready).
- :class:`DistKVStore`: the ``dist`` types, an all-reduce per key over MPI
  (:mod:`framework.distributed`; MPI starts only when one is created).
"""

from framework.kvstore.create import create
from framework.kvstore.dist_kvstore import DistKVStore
from framework.kvstore.kvstore import KVStore

__all__ = ['DistKVStore', 'KVStore', 'create']

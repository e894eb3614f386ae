"""Saving and loading (``import framework.serializers as S``).

- NPZ files with Chainer's key layout: :func:`save_npz`, :func:`load_npz`, and the
  :class:`DictionarySerializer` / :class:`NpzDeserializer` they use.
- PyTorch checkpoints, read without PyTorch: :func:`load_torch`, :func:`load_torch_state_dict`.
- Files that declare more data than they hold are refused with :class:`DeclaredSizeError`
  before anything that size is allocated.
- The protocol: :class:`AbstractSerializer`, :class:`Serializer`, :class:`Deserializer`.
"""

from framework.serializers._declared_sizes import DeclaredSizeError
from framework.serializers._safe_pickle import UnsafePickleError
from framework.serializers.npz import (
    DictionarySerializer,
    NpzDeserializer,
    NpzMismatchError,
    load_npz,
    save_npz,
)
from framework.serializers.pytorch import load_torch, load_torch_state_dict
from framework.serializers.serializer import AbstractSerializer, Deserializer, Serializer

__all__ = [
    'AbstractSerializer', 'DeclaredSizeError', 'Deserializer', 'DictionarySerializer',
    'NpzDeserializer', 'NpzMismatchError', 'Serializer', 'UnsafePickleError', 'load_npz',
    'load_torch', 'load_torch_state_dict', 'save_npz',
]

"""The dataset protocol (``from framework import dataset``), as Chainer's ``chainer.dataset``.

- :class:`Iterator`, the base class of iterators (implementations in
  :mod:`framework.iterators`).
- :class:`DatasetMixin`, Chainer-style indexing from ``get_example``.
- Converters from batches to arrays: :func:`concat_examples`, :func:`to_device`,
  :class:`ConcatWithAsyncTransfer`, :class:`Converter` and the :func:`converter` decorator.
"""

from framework.dataset.convert import (
    ConcatWithAsyncTransfer,
    Converter,
    concat_examples,
    converter,
    to_device,
)
from framework.dataset.dataset_mixin import DatasetMixin
from framework.dataset.iterator import Iterator

__all__ = ['ConcatWithAsyncTransfer', 'Converter', 'DatasetMixin', 'Iterator', 'concat_examples',
           'converter', 'to_device']

"""Pairs of examples drawn from two datasets, optionally with a chosen ratio of positive pairs."""

from __future__ import annotations

import numbers

import numpy

from framework.datasets import GetterDataset


def _fetch_labels(dataset) -> numpy.ndarray:
    """The second value of every example; a sliceable dataset gives them without reading the
    rest (no image is decoded)."""
    keys = getattr(dataset, 'keys', None)
    if hasattr(dataset, 'slice') and isinstance(keys, tuple) and len(keys) >= 2:
        return numpy.array(list(dataset.slice[:, 1]))
    return numpy.array([dataset[i][1] for i in range(len(dataset))])


def _check_labels(name: str, labels, dataset) -> numpy.ndarray:
    if not (isinstance(labels, numpy.ndarray) and labels.dtype == numpy.int32
            and labels.ndim == 1 and len(labels) == len(dataset)):
        got = (f'an array of shape {labels.shape} and dtype {labels.dtype}'
               if isinstance(labels, numpy.ndarray) else f'a {type(labels).__name__}')
        raise ValueError(f'SiameseDataset: {name} must be an int32 array of shape '
                         f'({len(dataset)},), one label per example, but got {got}')
    return labels


def _group_by_label(labels: numpy.ndarray) -> dict[int, numpy.ndarray]:
    """Maps each label to the indices of its examples."""
    unique, inverse = numpy.unique(labels, return_inverse=True)
    order = numpy.argsort(inverse, kind='stable')
    groups = numpy.split(order, numpy.cumsum(numpy.bincount(inverse))[:-1])
    return dict(zip(unique.tolist(), groups))


class SiameseDataset(GetterDataset):
    """A dataset whose examples join an example of one label dataset and one of another.

    Each call draws a new pair at random, whatever the index (which only has to be in range).
    If ``pos_ratio`` is given, the base datasets are label datasets (an example's second value
    is its label) and a pair is positive (the same label) with probability ``pos_ratio``,
    negative otherwise::

        >>> dataset = SiameseDataset(mnist, mnist, pos_ratio=0.3)
        >>> img_0, label_0, img_1, label_1 = dataset[0]

    Args:
        dataset_0: The first base dataset.
        dataset_1: The second base dataset.
        pos_ratio (float): The probability of a positive pair, in :math:`[0, 1]`. If
            :obj:`None` (default), both examples are drawn uniformly.
        length (int): The length of this dataset; :obj:`None` (default) is the length of
            ``dataset_0``.
        labels_0 (~numpy.ndarray): The labels of ``dataset_0``, int32 of shape
            ``(len(dataset_0),)``. If :obj:`None`, they are read from the dataset (through
            ``dataset_0.slice`` when it is sliceable, so that no image is decoded). Used only
            with ``pos_ratio``. When both datasets are the same object, giving one of
            ``labels_0`` and ``labels_1`` is enough.
        labels_1 (~numpy.ndarray): The labels of ``dataset_1``, as ``labels_0``.

    Raises:
        ValueError: ``pos_ratio`` asks for positive pairs and no label is in both datasets, or
            for negative pairs and every label of both is the same; or the labels are not int32
            arrays with one entry per example.

    This dataset returns the following data: the first two values (image and label) of an
    example of ``dataset_0`` followed by those of an example of ``dataset_1``.

    =========== ================ ================ ================
    name        shape            dtype            format
    =========== ================ ================ ================
    ``img_0``   as ``dataset_0`` as ``dataset_0`` as ``dataset_0``
    ``label_0`` ()               int32            [0, #class - 1]
    ``img_1``   as ``dataset_1`` as ``dataset_1`` as ``dataset_1``
    ``label_1`` ()               int32            [0, #class - 1]
    =========== ================ ================ ================

    """

    def __init__(self, dataset_0, dataset_1, pos_ratio: float | None = None,
                 length: int | None = None, labels_0: numpy.ndarray | None = None,
                 labels_1: numpy.ndarray | None = None) -> None:
        super().__init__()
        self.add_getter(('img_0', 'label_0', 'img_1', 'label_1'), self._get_pair)
        if pos_ratio is not None and not 0 <= pos_ratio <= 1:
            raise ValueError(f'SiameseDataset: pos_ratio must be None or in [0, 1], but got '
                             f'{pos_ratio}')
        if length is None:
            length = len(dataset_0)
        if not isinstance(length, numbers.Integral) or length < 0:
            raise ValueError(f'SiameseDataset: length must be None or a non-negative int, but '
                             f'got {length!r}')
        self._dataset_0 = dataset_0
        self._dataset_1 = dataset_1
        self._pos_ratio = pos_ratio
        self._length = int(length)
        if pos_ratio is None:
            return

        if dataset_0 is dataset_1:
            if labels_0 is None:
                labels_0 = labels_1
            if labels_1 is None:
                labels_1 = labels_0
        if labels_0 is None:
            labels_0 = _fetch_labels(dataset_0)
        if labels_1 is None:
            labels_1 = labels_0 if dataset_1 is dataset_0 else _fetch_labels(dataset_1)
        self._indices_0 = _group_by_label(_check_labels('labels_0', labels_0, dataset_0))
        self._indices_1 = _group_by_label(_check_labels('labels_1', labels_1, dataset_1))

        unique_0 = numpy.array(sorted(self._indices_0))
        self._unique_1 = numpy.array(sorted(self._indices_1))
        self._pos_labels = numpy.intersect1d(unique_0, self._unique_1)
        if len(self._pos_labels) == 0 and pos_ratio > 0:
            raise ValueError('SiameseDataset: pos_ratio asks for positive pairs, but no label '
                             'is in both datasets; set pos_ratio to 0 or None')
        # A label of dataset_0 has a negative partner if dataset_1 has another label.
        self._neg_labels_0 = unique_0[[(self._unique_1 != label).any() for label in unique_0]]
        if len(self._neg_labels_0) == 0 and pos_ratio < 1:
            raise ValueError('SiameseDataset: pos_ratio asks for negative pairs, but every '
                             'example of both datasets has the same label; set pos_ratio to 1 '
                             'or None')

    def __len__(self) -> int:
        return self._length

    def _get_pair(self, i: int) -> tuple:
        if self._pos_ratio is None:
            index_0 = numpy.random.randint(len(self._dataset_0))
            index_1 = numpy.random.randint(len(self._dataset_1))
        else:
            if numpy.random.binomial(1, self._pos_ratio):
                label_0 = label_1 = numpy.random.choice(self._pos_labels)
            else:
                label_0 = numpy.random.choice(self._neg_labels_0)
                label_1 = numpy.random.choice(self._unique_1[self._unique_1 != label_0])
            index_0 = numpy.random.choice(self._indices_0[int(label_0)])
            index_1 = numpy.random.choice(self._indices_1[int(label_1)])
        img_0, label_0 = self._dataset_0[index_0][:2]
        img_1, label_1 = self._dataset_1[index_1][:2]
        return img_0, label_0, img_1, label_1

"""Stanford Online Products: 120,053 images of 22,634 products in 12 super-classes."""

from __future__ import annotations

import os

import numpy

from framework.datasets import GetterDataset
from vision.datasets._annotation import AnnotationError
from vision.datasets._prepare import prepare_dataset
from vision.datasets._table import read_table
from vision.utils import read_image

url = 'http://ftp.cs.stanford.edu/cs/cvgl/Stanford_Online_Products.zip'
# The publisher gives no checksum; this md5 is the one recorded by pytorch-metric-learning.
_MD5 = '7f73d41a2f44250d4779881525aea32e'

online_products_super_label_names = (
    'bicycle',
    'cabinet',
    'chair',
    'coffee_maker',
    'fan',
    'kettle',
    'lamp',
    'mug',
    'sofa',
    'stapler',
    'table',
    'toaster',
)


def get_online_products() -> str:
    """Downloads and extracts Stanford Online Products (once) and returns its directory.

    Returns:
        str: The ``Stanford_Online_Products`` directory under
        ``$VISION_HOME/datasets/online_products``.

    """
    root = prepare_dataset('OnlineProductsDataset', 'online_products', url,
                           'Stanford_Online_Products', ('md5', _MD5))
    return os.path.join(root, 'Stanford_Online_Products')


def _labels(field: str, ids: list[int], n: int | None, path: str) -> numpy.ndarray:
    """The 1-based ids of a column as 0-based int32 labels, checked to lie in ``[1, n]``."""
    labels = numpy.asarray(ids, dtype=numpy.int32) - 1
    if len(labels) and (labels.min() < 0 or (n is not None and labels.max() >= n)):
        bound = f'in [1, {n}]' if n is not None else 'at least 1'
        raise AnnotationError('OnlineProductsDataset', path, f'field {field}', f'must be '
                              f'{bound}, but has values in [{labels.min() + 1}, '
                              f'{labels.max() + 1}]')
    return labels


class OnlineProductsDataset(GetterDataset):
    """Dataset class for `Stanford Online Products`_.

    .. _`Stanford Online Products`: https://cvgl.stanford.edu/projects/lifted_struct/

    The splits are those of the paper [#]_: the train split holds the first 11,318 classes,
    the test split the other 11,316.

    .. [#] Hyun Oh Song, Yu Xiang, Stefanie Jegelka, Silvio Savarese. `Deep Metric Learning
        via Lifted Structured Feature Embedding <https://arxiv.org/abs/1511.06452>`_. CVPR 2016.

    Args:
        data_dir (str): The ``Stanford_Online_Products`` directory (the archive extracted),
            which holds ``Ebay_train.txt`` and ``Ebay_test.txt``. If ``'auto'``, the archive is
            downloaded under ``$VISION_HOME/datasets/online_products``.
        split ({'train', 'test'}): The split.

    This dataset returns the following data.

    =============== =========== ======= ===================================
    name            shape       dtype   format
    =============== =========== ======= ===================================
    ``img``         (3, H, W)   float32 RGB, [0, 255]
    ``label``       ()          int32   [0, #class - 1]
    ``super_label`` ()          int32   [0, #super_class - 1]
    =============== =========== ======= ===================================

    Attributes:
        paths (list of str): The image paths.
        class_ids (~numpy.ndarray): The label of each image, int32.
        super_class_ids (~numpy.ndarray): The super label of each image, int32.

    """

    def __init__(self, data_dir: str = 'auto', split: str = 'train') -> None:
        super().__init__()
        if split not in ('train', 'test'):
            raise ValueError(f"OnlineProductsDataset: split must be 'train' or 'test', but got "
                             f'{split!r}')
        if data_dir == 'auto':
            data_dir = get_online_products()
        self.data_dir = data_dir
        path = os.path.join(data_dir, f'Ebay_{split}.txt')
        columns = [('image_id', int), ('class_id', int), ('super_class_id', int), ('path', str)]
        _, class_ids, super_class_ids, paths = read_table(
            'OnlineProductsDataset', path, columns, header=[name for name, _ in columns])
        self.class_ids = _labels('class_id', class_ids, None, path)
        self.super_class_ids = _labels('super_class_id', super_class_ids,
                                       len(online_products_super_label_names), path)
        self.paths = [os.path.join(data_dir, p) for p in paths]

        self.add_getter('img', self._get_image)
        self.add_getter('label', self._get_label)
        self.add_getter('super_label', self._get_super_label)

    def __len__(self) -> int:
        return len(self.paths)

    def _get_image(self, i: int) -> numpy.ndarray:
        return read_image(self.paths[i], color=True)

    def _get_label(self, i: int) -> numpy.int32:
        return self.class_ids[i]

    def _get_super_label(self, i: int) -> numpy.int32:
        return self.super_class_ids[i]

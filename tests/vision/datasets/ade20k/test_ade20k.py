"""ADE20K: ADEChallengeData2016.zip and release_test.zip served locally, downloaded, parsed."""

from __future__ import annotations

import hashlib

import numpy
import pytest

from vision.datasets import (
    ADE20KSemanticSegmentationDataset,
    ADE20KTestImageDataset,
    ade20k_semantic_segmentation_label_colors,
    ade20k_semantic_segmentation_label_names,
)
from vision.datasets.ade20k import (
    ade20k_semantic_segmentation_dataset,
    ade20k_test_image_dataset,
    ade20k_utils,
)
from vision.utils import assert_is_semantic_segmentation_dataset
from vision.utils.download import DownloadError
from vision.utils.testing import assert_is_image

_TRAINVAL = '/places/ADEchallenge/ADEChallengeData2016.zip'
_TEST = '/places/ADEchallenge/release_test.zip'
_COUNTS = {'training': 3, 'validation': 2}


@pytest.fixture
def ade20k(file_server, vision_home, make_archive, image_bytes, monkeypatch):
    """Serves both archives in their official layout; returns the label maps of each split."""
    rng = numpy.random.default_rng(0)
    entries = {'ADEChallengeData2016/objectInfo150.txt': b'Idx\tRatio\tTrain\tVal\tName\n',
               'ADEChallengeData2016/sceneCategories.txt': b'ADE_train_00000001 airport\n'}
    labels = {}
    for split, n in _COUNTS.items():
        prefix = 'train' if split == 'training' else 'val'
        for k in range(n, 0, -1):
            name = f'ADE_{prefix}_{k:08d}'
            img = rng.integers(0, 256, size=(10 + k, 14, 3), dtype=numpy.uint8)
            label = rng.integers(0, 151, size=(10 + k, 14), dtype=numpy.uint8)
            entries[f'ADEChallengeData2016/images/{split}/{name}.jpg'] = image_bytes(img, 'jpeg')
            entries[f'ADEChallengeData2016/annotations/{split}/{name}.png'] = image_bytes(label)
            labels.setdefault(split, {})[name] = label
    test_entries = {'release_test/list.txt': b'ADE_test_00000001.jpg\n',
                    'release_test/readme.txt': b'test images\n'}
    for k in range(1, 5):
        img = rng.integers(0, 256, size=(9, 7, 3), dtype=numpy.uint8)
        test_entries[f'release_test/testing/ADE_test_{k:08d}.jpg'] = image_bytes(img, 'jpeg')
    trainval_url = file_server.serve(_TRAINVAL, make_archive('zip', entries))
    test_url = file_server.serve(_TEST, make_archive('zip', test_entries))
    monkeypatch.setattr(ade20k_semantic_segmentation_dataset, '_TRAINVAL_URL', trainval_url)
    monkeypatch.setattr(ade20k_test_image_dataset, '_TEST_URL', test_url)
    checksums = {url: ('sha1', hashlib.sha1(file_server.files[path]).hexdigest())
                 for url, path in ((trainval_url, _TRAINVAL), (test_url, _TEST))}
    monkeypatch.setattr(ade20k_utils, '_CHECKSUMS', checksums)
    return labels


def test_label_tables():
    assert len(ade20k_semantic_segmentation_label_names) == 150
    assert len(ade20k_semantic_segmentation_label_colors) == 150
    assert ade20k_semantic_segmentation_label_names[:3] == ('wall', 'edifice', 'sky')
    assert ade20k_semantic_segmentation_label_names[-1] == 'flag'
    assert ade20k_semantic_segmentation_label_colors[-1] == (92, 0, 255)


@pytest.mark.parametrize('split, directory', [('train', 'training'), ('val', 'validation')])
def test_semantic_segmentation(ade20k, file_server, split, directory):
    dataset = ADE20KSemanticSegmentationDataset(split=split)
    assert len(dataset) == _COUNTS[directory]
    assert_is_semantic_segmentation_dataset(dataset, len(ade20k_semantic_segmentation_label_names))
    names = sorted(ade20k[directory])
    for path, label, name in zip(dataset.label_paths, dataset.slice[:, 'label'], names):
        assert path.endswith(name + '.png')
        numpy.testing.assert_array_equal(label, ade20k[directory][name].astype(numpy.int32) - 1)
    assert file_server.count(_TRAINVAL) == 1 and file_server.count(_TEST) == 0


def test_labels_without_decoding_images(ade20k, monkeypatch):
    dataset = ADE20KSemanticSegmentationDataset(split='val')
    monkeypatch.setattr(ade20k_semantic_segmentation_dataset, 'read_image', None)
    assert [label.shape for label in dataset.slice[:, 'label']] == [(11, 14), (12, 14)]


def test_test_images(ade20k, file_server):
    dataset = ADE20KTestImageDataset()
    assert dataset.keys == 'img'
    assert len(dataset) == 4
    for img in dataset[:4]:
        assert_is_image(img, color=True)
        assert img.shape == (3, 9, 7)
    ADE20KTestImageDataset()
    assert file_server.count(_TEST) == 1 and file_server.count(_TRAINVAL) == 0


def test_wrong_checksum(ade20k, vision_home, monkeypatch):
    url = ade20k_semantic_segmentation_dataset._TRAINVAL_URL
    monkeypatch.setitem(ade20k_utils._CHECKSUMS, url, ('sha1', '0' * 40))
    with pytest.raises(DownloadError, match='the file has sha1 [0-9a-f]{40}, but 0{40} was'):
        ADE20KSemanticSegmentationDataset()
    assert not (vision_home / 'datasets' / 'ade20k' / 'ADEChallengeData2016').exists()


def test_missing_annotation(tmp_path, image_bytes):
    images = tmp_path / 'ADEChallengeData2016' / 'images' / 'validation'
    images.mkdir(parents=True)
    (tmp_path / 'ADEChallengeData2016' / 'annotations' / 'validation').mkdir(parents=True)
    (images / 'ADE_val_00000001.jpg').write_bytes(image_bytes(numpy.zeros((4, 4, 3))))
    with pytest.raises(FileNotFoundError, match=r'the image .*ADE_val_00000001\.jpg has no '
                                                r'annotation .*ADE_val_00000001\.png'):
        ADE20KSemanticSegmentationDataset(str(tmp_path), split='val')


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="split must be 'train' or 'val', but got 'test'"):
        ADE20KSemanticSegmentationDataset(str(tmp_path), split='test')
    with pytest.raises(FileNotFoundError, match='images/training does not exist'):
        ADE20KSemanticSegmentationDataset(str(tmp_path))
    with pytest.raises(FileNotFoundError, match='release_test/testing does not exist'):
        ADE20KTestImageDataset(str(tmp_path))

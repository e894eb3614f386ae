"""Cityscapes: archives in the official layout, extracted by hand as the error message says."""

from __future__ import annotations

import io
import os
import zipfile

import numpy
import pytest

from vision.datasets import (
    CityscapesSemanticSegmentationDataset,
    CityscapesTestImageDataset,
    cityscapes_semantic_segmentation_label_colors,
    cityscapes_semantic_segmentation_label_names,
)
from vision.datasets.cityscapes import cityscapes_semantic_segmentation_dataset
from vision.datasets.cityscapes.cityscapes_utils import cityscapes_labels
from vision.utils import assert_is_semantic_segmentation_dataset, write_image
from vision.utils.testing import assert_is_image

_CITIES = {'train': ('aachen', 'bochum'), 'val': ('frankfurt',), 'test': ('berlin',)}


def _archives(make_archive, image_bytes, rng):
    """The three archives of the download page, cut down to a few 8x10 images per city."""
    images, fine, coarse = {'README': b'', 'license.txt': b''}, {}, {}
    labels = {}
    for split, cities in _CITIES.items():
        for city in cities:
            for k in range(2):
                stem = f'{city}_{k:06d}_000019'
                img = rng.integers(0, 256, size=(8, 10, 3), dtype=numpy.uint8)
                label = rng.integers(0, 34, size=(8, 10), dtype=numpy.uint8)
                images[f'leftImg8bit/{split}/{city}/{stem}_leftImg8bit.png'] = image_bytes(img)
                labels[f'{city}/{stem}'] = label
                for kind, entries in (('gtFine', fine), ('gtCoarse', coarse)):
                    if kind == 'gtCoarse' and split == 'test':
                        continue
                    base = f'{kind}/{split}/{city}/{stem}_{kind}'
                    entries[f'{base}_labelIds.png'] = image_bytes(label)
                    entries[f'{base}_instanceIds.png'] = image_bytes(label)
                    entries[f'{base}_color.png'] = image_bytes(img)
                    entries[f'{base}_polygons.json'] = b'{"objects": []}'
    return ({'leftImg8bit_trainvaltest.zip': make_archive('zip', images),
             'gtFine_trainvaltest.zip': make_archive('zip', fine),
             'gtCoarse.zip': make_archive('zip', coarse)}, labels)


@pytest.fixture
def cityscapes(tmp_path, make_archive, image_bytes):
    """A directory where the archives were extracted as the instructions say."""
    archives, labels = _archives(make_archive, image_bytes, numpy.random.default_rng(0))
    root = tmp_path / 'cityscapes'
    for data in archives.values():
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            archive.extractall(root)
    return root, labels


def _train_ids(label):
    """The train ids of a label map, computed label by label."""
    out = numpy.full(label.shape, -1, dtype=numpy.int32)
    for entry in cityscapes_labels:
        if not entry.ignoreInEval:
            out[label == entry.id] = entry.trainId
    return out


def test_label_tables():
    assert len(cityscapes_semantic_segmentation_label_names) == 19
    assert cityscapes_semantic_segmentation_label_names[0] == 'road'
    assert cityscapes_semantic_segmentation_label_names[-1] == 'bicycle'
    assert cityscapes_semantic_segmentation_label_colors[0] == (128, 64, 128)
    assert [label.id for label in cityscapes_labels[:34]] == list(range(34))


@pytest.mark.parametrize('resolution', ['fine', 'coarse'])
@pytest.mark.parametrize('split', ['train', 'val'])
@pytest.mark.parametrize('ignore_labels', [True, False])
def test_semantic_segmentation(cityscapes, resolution, split, ignore_labels):
    root, labels = cityscapes
    dataset = CityscapesSemanticSegmentationDataset(str(root), resolution, split, ignore_labels)
    assert dataset.keys == ('img', 'label')
    assert len(dataset) == 2 * len(_CITIES[split])
    assert_is_semantic_segmentation_dataset(dataset, 19 if ignore_labels else 34)
    for img_path, label_path, label in zip(dataset.img_paths, dataset.label_paths,
                                           dataset.slice[:, 'label']):
        key = os.path.relpath(img_path, root / 'leftImg8bit' / split)[:-len('_leftImg8bit.png')]
        assert os.path.basename(label_path).startswith(os.path.basename(key))
        expected = labels[key].astype(numpy.int32)
        numpy.testing.assert_array_equal(label, _train_ids(expected) if ignore_labels
                                         else expected)


def test_auto_reads_the_dataset_root(cityscapes, vision_home):
    root, _ = cityscapes
    os.makedirs(vision_home / 'datasets')
    os.rename(root, vision_home / 'datasets' / 'cityscapes')
    assert len(CityscapesSemanticSegmentationDataset(label_resolution='fine')) == 4
    assert len(CityscapesTestImageDataset()) == 2


def test_labels_without_decoding_images(cityscapes, monkeypatch):
    dataset = CityscapesSemanticSegmentationDataset(str(cityscapes[0]), 'fine')
    monkeypatch.setattr(cityscapes_semantic_segmentation_dataset, 'read_image', None)
    assert len(list(dataset.slice[:, 'label'])) == 4


def test_test_images(cityscapes):
    dataset = CityscapesTestImageDataset(str(cityscapes[0]))
    assert dataset.keys == 'img'
    assert len(dataset) == 2
    for img in dataset:
        assert_is_image(img, color=True)


def test_chainercv_layout(tmp_path):
    """The layout of ChainerCV's test: random label ids written with write_image."""
    rng = numpy.random.default_rng(1)
    img_dir = tmp_path / 'leftImg8bit' / 'val' / 'aachen'
    label_dir = tmp_path / 'gtCoarse' / 'val' / 'aachen'
    os.makedirs(img_dir)
    os.makedirs(label_dir)
    for i in range(3):
        write_image(rng.integers(0, 255, size=(3, 16, 20)).astype(numpy.uint8),
                    img_dir / f'aachen_000000_0000{i:02d}_leftImg8bit.png')
        write_image(rng.integers(0, 34, size=(1, 16, 20)).astype(numpy.int32),
                    label_dir / f'aachen_000000_0000{i:02d}_gtCoarse_labelIds.png')
    dataset = CityscapesSemanticSegmentationDataset(str(tmp_path), 'coarse', 'val', False)
    assert_is_semantic_segmentation_dataset(dataset, 34)


def test_missing_download_says_what_to_fetch(tmp_path, vision_home):
    root = vision_home / 'datasets' / 'cityscapes'
    with pytest.raises(FileNotFoundError) as info:
        CityscapesSemanticSegmentationDataset(label_resolution='fine')
    message = str(info.value)
    assert message.startswith(f'CityscapesSemanticSegmentationDataset: {root}/leftImg8bit/'
                              f'train does not exist')
    assert 'https://www.cityscapes-dataset.com/downloads/' in message
    assert f'download leftImg8bit_trainvaltest.zip and extract it into {root}' in message
    os.makedirs(root / 'leftImg8bit' / 'train')
    with pytest.raises(FileNotFoundError, match=r'download gtCoarse\.zip and extract it into'):
        CityscapesSemanticSegmentationDataset(label_resolution='coarse')
    with pytest.raises(FileNotFoundError, match=r'leftImg8bit/test does not exist.* '
                                                r'leftImg8bit_trainvaltest\.zip'):
        CityscapesTestImageDataset(str(tmp_path))


def test_missing_image(cityscapes):
    root, _ = cityscapes
    os.remove(root / 'leftImg8bit' / 'val' / 'frankfurt' / 'frankfurt_000001_000019_'
              'leftImg8bit.png')
    with pytest.raises(FileNotFoundError, match=r'the annotation .*frankfurt_000001_000019_'
                                                r'gtFine_labelIds\.png has no image'):
        CityscapesSemanticSegmentationDataset(str(root), 'fine', 'val')


def test_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="label_resolution must be 'fine' or 'coarse', but "
                                         'got None'):
        CityscapesSemanticSegmentationDataset(str(tmp_path))
    with pytest.raises(ValueError, match="split must be one of .* for coarse labels, but got "
                                         "'test'"):
        CityscapesSemanticSegmentationDataset(str(tmp_path), 'coarse', 'test')

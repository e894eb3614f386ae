"""COCOSemanticSegmentationDataset: label maps from the panoptic annotations."""

from __future__ import annotations

import json
import shutil

import numpy
import pytest
from PIL import Image

from vision.datasets import (
    COCOSemanticSegmentationDataset,
    coco_semantic_segmentation_label_colors,
    coco_semantic_segmentation_label_names,
)
from vision.datasets._annotation import AnnotationError
from vision.datasets.coco import coco_semantic_segmentation_dataset, coco_utils
from vision.utils import assert_is_semantic_segmentation_dataset


def test_label_tables():
    assert len(coco_semantic_segmentation_label_names) == 133
    assert len(coco_semantic_segmentation_label_colors) == 133
    assert coco_semantic_segmentation_label_names[80] == 'banner'
    assert coco_semantic_segmentation_label_names[-1] == 'rug-merged'
    assert coco_semantic_segmentation_label_colors[0] == (220, 20, 60)


@pytest.mark.parametrize('split', ['train', 'val'])
def test_download_and_parse(coco, vision_home, split):
    dataset = COCOSemanticSegmentationDataset(split=split)
    expected = coco['panoptic'][split]
    assert dataset.keys == ('img', 'label')
    assert len(dataset) == len(expected)
    assert_is_semantic_segmentation_dataset(dataset, len(coco_semantic_segmentation_label_names))
    for (img, label), truth in zip(dataset, expected):
        numpy.testing.assert_array_equal(img, truth.img)
        numpy.testing.assert_array_equal(label, truth.label)
        assert (label == -1).any()
    assert (vision_home / 'datasets' / 'coco' / 'annotations' / f'panoptic_{split}2017').is_dir()


def test_downloads_once(coco, file_server):
    COCOSemanticSegmentationDataset(split='train')
    COCOSemanticSegmentationDataset(split='val')
    COCOSemanticSegmentationDataset(split='val')
    assert file_server.count('/coco/panoptic_annotations_trainval2017.zip') == 1


def test_labels_without_decoding_images(coco, monkeypatch):
    dataset = COCOSemanticSegmentationDataset(split='val')
    real = coco_semantic_segmentation_dataset.read_image

    def read_png_only(path, *args, **kwargs):
        assert path.endswith('.png'), 'an image was decoded'
        return real(path, *args, **kwargs)

    monkeypatch.setattr(coco_semantic_segmentation_dataset, 'read_image', read_png_only)
    labels = list(dataset.slice[:, 'label'])
    assert len(labels) == 2


@pytest.fixture
def local(coco, tmp_path):
    data_dir = tmp_path / 'coco'
    shutil.copytree(coco_utils.get_coco('val', 'val', '2017', 'panoptic'), data_dir)
    return data_dir


def test_png_of_wrong_size(local):
    content = json.loads((local / 'annotations' / 'panoptic_val2017.json').read_text())
    name = content['annotations'][0]['file_name']
    Image.new('RGB', (3, 2)).save(local / 'annotations' / 'panoptic_val2017' / name)
    dataset = COCOSemanticSegmentationDataset(str(local), split='val')
    with pytest.raises(AnnotationError, match=fr'{name}: the panoptic PNG must have the size '
                                              r'\(H, W\) = .* but has size \(2, 3\)'):
        dataset[0]


@pytest.mark.parametrize('mutate, when, field, problem', [
    (lambda d: d['annotations'][1].update(image_id=5), 'init', r'annotations\[1\].image_id',
     'is 5, which is not the id of an image'),
    (lambda d: d['annotations'][0].pop('segments_info'), 'init',
     r'annotations\[0\].segments_info', 'is missing'),
    (lambda d: d['annotations'][0]['segments_info'][1].update(category_id=7), 'read',
     r'annotations\[0\].segments_info\[1\].category_id', 'is 7, which is not the id of a '
                                                          'category'),
])
def test_malformed_json(local, mutate, when, field, problem):
    path = local / 'annotations' / 'panoptic_val2017.json'
    content = json.loads(path.read_text())
    mutate(content)
    path.write_text(json.dumps(content))
    pattern = f'COCOSemanticSegmentationDataset: {path}: {field} {problem}'
    with pytest.raises(AnnotationError, match=pattern):
        COCOSemanticSegmentationDataset(str(local), split='val')[0]
    if when == 'read':
        assert len(COCOSemanticSegmentationDataset(str(local), split='val')[1]) == 2


def test_bad_split():
    with pytest.raises(ValueError, match="split must be 'train' or 'val', but got 'minival'"):
        COCOSemanticSegmentationDataset(split='minival')

"""VOCSemanticSegmentationDataset: the 2012 tar served locally, downloaded and parsed."""

from __future__ import annotations

import shutil

import numpy
import pytest
from PIL import Image

from vision.datasets import (
    VOCSemanticSegmentationDataset,
    voc_semantic_segmentation_ignore_label_color,
    voc_semantic_segmentation_label_colors,
    voc_semantic_segmentation_label_names,
)
from vision.datasets._annotation import AnnotationError
from vision.datasets.voc import voc_semantic_segmentation_dataset, voc_utils
from vision.utils import assert_is_semantic_segmentation_dataset


def test_label_tables():
    assert len(voc_semantic_segmentation_label_names) == 21
    assert voc_semantic_segmentation_label_names[0] == 'background'
    assert voc_semantic_segmentation_label_names[15] == 'person'
    assert len(voc_semantic_segmentation_label_colors) == 21
    assert voc_semantic_segmentation_label_colors[15] == (192, 128, 128)
    assert voc_semantic_segmentation_ignore_label_color == (224, 224, 192)


@pytest.mark.parametrize('split', ['train', 'val', 'trainval'])
def test_download_and_parse(voc, split):
    dataset = VOCSemanticSegmentationDataset(split=split)
    expected = voc['2012'].splits[split]
    assert dataset.keys == ('img', 'label')
    assert len(dataset) == len(expected)
    assert_is_semantic_segmentation_dataset(dataset, len(voc_semantic_segmentation_label_names))
    for (img, label), truth in zip(dataset, expected):
        numpy.testing.assert_array_equal(img, truth.img)
        want = truth.class_map.astype(numpy.int32)
        want[want == 255] = -1
        numpy.testing.assert_array_equal(label, want)
        assert (label == -1).any()


def test_labels_without_decoding_images(voc, monkeypatch):
    dataset = VOCSemanticSegmentationDataset(split='train')

    def fail(*args, **kwargs):
        raise AssertionError('an image was decoded')

    monkeypatch.setattr(voc_semantic_segmentation_dataset, 'read_image', fail)
    labels = list(dataset.slice[:, 'label'])
    assert [label.shape for label in labels] == [e.class_map.shape
                                                for e in voc['2012'].splits['train']]


def test_label_of_wrong_size(voc, tmp_path):
    local = tmp_path / 'VOC2012'
    shutil.copytree(voc_utils.get_voc('2012', 'val'), local)
    first = voc['2012'].splits['val'][0]
    height, width = first.size
    Image.new('P', (width + 1, height)).save(local / 'SegmentationClass' / f'{first.id}.png')
    dataset = VOCSemanticSegmentationDataset(str(local), split='val')
    with pytest.raises(AnnotationError, match=f'{first.id}.png: the label map must have the '
                                              fr'size \(H, W\) = \({height}, {width}\) of '
                                              fr'.*{first.id}.jpg, but has size '
                                              fr'\({height}, {width + 1}\)'):
        dataset[0]


def test_bad_split():
    with pytest.raises(ValueError, match='VOCSemanticSegmentationDataset: split must be one '
                                         "of .*, but got 'test'"):
        VOCSemanticSegmentationDataset(split='test')

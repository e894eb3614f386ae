"""VOCInstanceSegmentationDataset and the class/instance map splitting."""

from __future__ import annotations

import shutil

import numpy
import pytest

from vision.datasets import VOCInstanceSegmentationDataset, voc_instance_segmentation_label_names
from vision.datasets._annotation import AnnotationError
from vision.datasets.voc import voc_instance_segmentation_dataset, voc_utils
from vision.utils import assert_is_instance_segmentation_dataset


@pytest.mark.parametrize('split', ['train', 'val', 'trainval'])
def test_download_and_parse(voc, split):
    dataset = VOCInstanceSegmentationDataset(split=split)
    expected = voc['2012'].splits[split]
    assert dataset.keys == ('img', 'mask', 'label')
    assert len(dataset) == len(expected)
    assert_is_instance_segmentation_dataset(dataset,
                                            len(voc_instance_segmentation_label_names))
    for (img, mask, label), truth in zip(dataset, expected):
        numpy.testing.assert_array_equal(img, truth.img)
        ids = [k for k in range(1, len(truth.label) + 1) if (truth.object_map == k).any()]
        numpy.testing.assert_array_equal(mask, [truth.object_map == k for k in ids])
        numpy.testing.assert_array_equal(label, truth.label[numpy.array(ids) - 1])


def test_annotations_without_decoding_images(voc, monkeypatch):
    dataset = VOCInstanceSegmentationDataset(split='val')

    def fail(*args, **kwargs):
        raise AssertionError('an image was decoded')

    monkeypatch.setattr(voc_instance_segmentation_dataset, 'read_image', fail)
    for mask, label in dataset.slice[:, ('mask', 'label')]:
        assert mask.dtype == bool and len(mask) == len(label)


def _reference(label_img, inst_img):
    """Brute force: for each instance id in increasing order, its mask and the most frequent
    object class (>= 1) of its pixels, minus one."""
    masks, labels = [], []
    for inst in sorted(set(inst_img.ravel().tolist()) - {-1}):
        mask = inst_img == inst
        classes = [c for c in label_img[mask].tolist() if c >= 1]
        masks.append(mask)
        labels.append(max(set(classes), key=lambda c: (classes.count(c), -c)) - 1)
    return numpy.array(masks, dtype=bool).reshape(-1, *inst_img.shape), labels


def test_image_wise_to_instance_wise_against_brute_force():
    rng = numpy.random.default_rng(0)
    for _ in range(20):
        inst_img = rng.integers(-1, 6, (9, 11)).astype(numpy.int32)
        label_img = rng.integers(1, 5, (9, 11)).astype(numpy.int32)
        label_img[rng.random((9, 11)) < 0.2] = -1
        label_img[rng.random((9, 11)) < 0.2] = 0
        for inst in numpy.unique(inst_img[inst_img >= 0]):  # one object pixel at least
            label_img[numpy.argwhere(inst_img == inst)[0][0],
                      numpy.argwhere(inst_img == inst)[0][1]] = 3
        mask, label = voc_utils.image_wise_to_instance_wise(label_img, inst_img)
        want_mask, want_label = _reference(label_img, inst_img)
        numpy.testing.assert_array_equal(mask, want_mask)
        assert label.tolist() == want_label and label.dtype == numpy.int32


def test_image_wise_to_instance_wise_empty_and_errors():
    mask, label = voc_utils.image_wise_to_instance_wise(
        numpy.zeros((3, 4), numpy.int32), numpy.full((3, 4), -1, numpy.int32))
    assert mask.shape == (0, 3, 4) and mask.dtype == bool
    assert label.shape == (0,) and label.dtype == numpy.int32
    inst_img = numpy.array([[1, 1], [2, 2]], dtype=numpy.int32)
    label_img = numpy.array([[4, 0], [0, -1]], dtype=numpy.int32)
    with pytest.raises(AnnotationError, match=r'f: p: instances \[2\] have no pixel of an '
                                              'object class in the class map'):
        voc_utils.image_wise_to_instance_wise(label_img, inst_img, 'f', 'p')
    with pytest.raises(AnnotationError, match=r'the class map has shape \(2, 2\), but the '
                                              r'instance map has shape \(2, 3\)'):
        voc_utils.image_wise_to_instance_wise(label_img, numpy.zeros((2, 3), numpy.int32))


def test_object_map_of_wrong_size(voc, tmp_path, image_bytes):
    local = tmp_path / 'VOC2012'
    shutil.copytree(voc_utils.get_voc('2012', 'train'), local)
    first = voc['2012'].splits['train'][0]
    height, width = first.size
    (local / 'SegmentationObject' / f'{first.id}.png').write_bytes(
        image_bytes(numpy.zeros((height - 2, width), numpy.uint8)))
    dataset = VOCInstanceSegmentationDataset(str(local), split='train')
    with pytest.raises(AnnotationError, match=f'SegmentationObject/{first.id}.png: the label '
                                              'map must have the size'):
        dataset[0]

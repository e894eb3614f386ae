"""SBDInstanceSegmentationDataset: benchmark.tgz and train_noval.txt served locally."""

from __future__ import annotations

import io
import shutil

import numpy
import pytest
from PIL import Image

from vision.datasets import (
    SBDInstanceSegmentationDataset,
    sbd_instance_segmentation_label_names,
    voc_instance_segmentation_label_names,
)
from vision.datasets._annotation import AnnotationError
from vision.datasets.sbd import sbd_instance_segmentation_dataset, sbd_utils
from vision.utils import assert_is_instance_segmentation_dataset


def _decode(jpeg: bytes) -> numpy.ndarray:
    with Image.open(io.BytesIO(jpeg)) as image:
        return numpy.asarray(image.convert('RGB'), numpy.float32).transpose(2, 0, 1)


def test_label_names():
    assert sbd_instance_segmentation_label_names == voc_instance_segmentation_label_names


@pytest.mark.parametrize('split', ['train', 'val', 'trainval'])
def test_download_and_parse(sbd, vision_home, split):
    examples, train_noval = sbd
    dataset = SBDInstanceSegmentationDataset(split=split)
    expected = {'train': train_noval,
                'val': sorted(set(examples) - set(train_noval)),
                'trainval': sorted(examples)}[split]
    assert dataset.ids == expected
    assert dataset.keys == ('img', 'mask', 'label')
    assert dataset.data_dir == str(vision_home / 'datasets' / 'sbd' / 'benchmark_RELEASE' /
                                   'dataset')
    assert_is_instance_segmentation_dataset(dataset, len(sbd_instance_segmentation_label_names))
    for (img, mask, label), id_ in zip(dataset, expected):
        jpeg, _, inst_map, labels, visible = examples[id_]
        numpy.testing.assert_array_equal(img, _decode(jpeg))
        numpy.testing.assert_array_equal(mask, [inst_map == k for k in visible])
        assert label.tolist() == labels


def test_downloads_once(sbd, file_server):
    for split in ('train', 'val', 'trainval', 'train'):
        SBDInstanceSegmentationDataset(split=split)
    assert file_server.count('/sbd/benchmark.tgz') == 1
    assert file_server.count('/SBD/train_noval.txt') == 1


def test_annotations_without_decoding_images(sbd, monkeypatch):
    dataset = SBDInstanceSegmentationDataset(split='val')

    def fail(*args, **kwargs):
        raise AssertionError('an image was decoded')

    monkeypatch.setattr(sbd_instance_segmentation_dataset, 'read_image', fail)
    assert [len(label) for label in dataset.slice[:, 'label']] == [
        len(sbd[0][i][3]) for i in dataset.ids]


def test_malformed_files(sbd, tmp_path, write_mat):
    local = tmp_path / 'dataset'
    shutil.copytree(sbd_utils.get_sbd(), local)
    first = sbd[1][0]
    height, width = sbd[0][first][1].shape
    (local / 'cls' / f'{first}.mat').write_bytes(write_mat({'GTinst': {'x': numpy.zeros(1)}}))
    dataset = SBDInstanceSegmentationDataset(str(local), split='train')
    with pytest.raises(AnnotationError, match=fr'{first}.mat: GTcls is missing \(the file '
                                              r"holds \['GTinst'\]\)"):
        dataset[0]
    (local / 'cls' / f'{first}.mat').write_bytes(write_mat({'GTcls': {
        'Segmentation': numpy.zeros((height, width + 2), numpy.uint8)}}))
    with pytest.raises(AnnotationError, match=fr'{first}.mat: GTcls.Segmentation must have the '
                                              fr'size \(H, W\) = \({height}, {width}\)'):
        dataset[0]
    (local / 'cls' / f'{first}.mat').write_bytes(write_mat({'GTcls': {'Segmentation': 'text'}}))
    with pytest.raises(AnnotationError, match='GTcls.Segmentation must be a two-dimensional '
                                              'numeric array'):
        dataset[0]


def test_bad_split():
    with pytest.raises(ValueError, match="SBDInstanceSegmentationDataset: split must be "
                                         "'train', 'val' or 'trainval', but got 'test'"):
        SBDInstanceSegmentationDataset(split='test')

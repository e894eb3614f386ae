"""CUBLabelDataset: CUB_200_2011.tgz served locally, verified by md5, extracted and parsed."""

from __future__ import annotations

import os

import numpy
import pytest

from vision.datasets import CUBLabelDataset, cub_label_names
from vision.datasets._annotation import AnnotationError
from vision.datasets.cub import cub_utils
from vision.utils import assert_is_bbox, assert_is_label_dataset
from vision.utils.download import DownloadError


def test_label_names():
    assert len(cub_label_names) == 200
    assert cub_label_names[0] == 'Black_footed_Albatross'
    assert cub_label_names[199] == 'Common_Yellowthroat'


@pytest.mark.parametrize('return_bbox', [False, True])
@pytest.mark.parametrize('return_prob_map', [False, True])
def test_download_and_parse(cub, file_server, return_bbox, return_prob_map):
    dataset = CUBLabelDataset(return_bbox=return_bbox, return_prob_map=return_prob_map)
    assert dataset.keys == ('img', 'label') + ('bbox',) * return_bbox \
        + ('prob_map',) * return_prob_map
    assert len(dataset) == 4
    assert_is_label_dataset(dataset, len(cub_label_names))
    assert dataset.paths == cub.paths
    for i, example in enumerate(dataset):
        assert example[0].shape == (3,) + cub.images[i].shape[:2]
        assert example[1] == cub.labels[i]
        if return_bbox:
            bbox = example[2]
            assert_is_bbox(bbox)
            x, y, w, h = cub.boxes[i]
            numpy.testing.assert_array_equal(bbox, [[y, x, y + h, x + w]])
        if return_prob_map:
            prob_map = example[-1]
            assert prob_map.dtype == numpy.float32
            numpy.testing.assert_allclose(prob_map, cub.prob_maps[i] / 255, rtol=1e-6)
    assert file_server.count(cub.archive) == 1
    assert file_server.count(cub.segmentations) == int(return_prob_map)


def test_annotations_without_decoding_images(cub, monkeypatch):
    dataset = CUBLabelDataset(return_bbox=True)
    monkeypatch.setattr(cub_utils, 'read_image', None)
    assert [int(label) for label in dataset.slice[:, 'label']] == cub.labels
    assert len(list(dataset.slice[:, ('label', 'bbox')])) == 4


def test_local_directories(cub):
    data_dir, prob_map_dir = cub_utils.get_cub(), cub_utils.get_cub_prob_map()
    dataset = CUBLabelDataset(data_dir, prob_map_dir=prob_map_dir, return_prob_map=True)
    assert dataset[3][2].shape == cub.images[3].shape[:2]


def test_wrong_md5(cub, vision_home, monkeypatch):
    monkeypatch.setattr(cub_utils, '_MD5', 'f' * 32)
    with pytest.raises(DownloadError, match=r'get_cub: could not download .*CUB_200_2011\.tgz: '
                                            r'the file has md5 [0-9a-f]{32}, but f{32} was '
                                            r'expected; it was deleted from the cache'):
        CUBLabelDataset()
    downloads = vision_home / 'downloads'
    assert not [f for _, _, files in os.walk(downloads) for f in files if f.endswith('.tgz')]
    assert not (vision_home / 'datasets' / 'cub' / 'CUB_200_2011').exists()


@pytest.mark.parametrize('table, text, message', [
    ('image_class_labels.txt', '1 1\n2 x\n', "line 2, field class_id must be an integer, "
                                             "but is 'x'"),
    ('image_class_labels.txt', '1 1\n2 201\n3 1\n4 1\n', r'field class_id must be in \[1, '
                                                         r'200\], but has values in \[1, 201\]'),
    ('image_class_labels.txt', '1 1\n2 1\n3 1\n',
     'field image_id must give 1 row.* to each of the 4 images'),
    ('bounding_boxes.txt', '1 0 0 1\n', r'line 1 must have 5 fields \(image_id x y width '
                                        r'height\), but has 4'),
    ('images.txt', '1 a.jpg\n1 b.jpg\n', r'field image_id must not repeat an id, but repeats '
                                          r'\[1\]'),
])
def test_malformed_tables(cub, table, text, message):
    data_dir = cub_utils.get_cub()
    with open(os.path.join(data_dir, table), 'w') as f:
        f.write(text)
    with pytest.raises(AnnotationError, match=f'CUBLabelDataset: .*{table}: {message}'):
        CUBLabelDataset(data_dir)

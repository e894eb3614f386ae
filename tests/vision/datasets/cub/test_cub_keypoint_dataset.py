"""CUBKeypointDataset: keypoints in (y, x) order, visibility, and no image decoded for them."""

from __future__ import annotations

import os

import numpy
import pytest

from vision.datasets import CUBKeypointDataset
from vision.datasets._annotation import AnnotationError
from vision.datasets.cub import cub_utils
from vision.utils import assert_is_bbox, assert_is_point_dataset


@pytest.mark.parametrize('return_bbox', [False, True])
@pytest.mark.parametrize('return_prob_map', [False, True])
def test_download_and_parse(cub, return_bbox, return_prob_map):
    dataset = CUBKeypointDataset(return_bbox=return_bbox, return_prob_map=return_prob_map)
    assert dataset.keys == ('img', 'point', 'visible') + ('bbox',) * return_bbox \
        + ('prob_map',) * return_prob_map
    assert_is_point_dataset(dataset, n_point=15)
    for i, example in enumerate(dataset):
        img, point, visible = example[:3]
        assert point.shape == (1, 15, 2) and visible.shape == (1, 15)
        numpy.testing.assert_array_equal(point[0], cub.points[i])
        numpy.testing.assert_array_equal(visible[0], cub.visible[i])
        if return_bbox:
            assert_is_bbox(example[3])
        if return_prob_map:
            assert example[-1].shape == img.shape[1:]
            assert 0 <= example[-1].min() and example[-1].max() <= 1


def test_points_without_decoding_images(cub, monkeypatch):
    dataset = CUBKeypointDataset()
    monkeypatch.setattr(cub_utils, 'read_image', None)
    points = list(dataset.slice[:, ('point', 'visible')])
    assert len(points) == 4
    numpy.testing.assert_array_equal(points[2][1][0], cub.visible[2])


@pytest.mark.parametrize('lines, message', [
    (lambda rows: rows[:-1], 'field image_id must give 15 row.* to each of the 4 images'),
    (lambda rows: [r.replace(' 15 ', ' 16 ', 1) if r.split()[1] == '15' else r for r in rows],
     'field part_id must take each value from 1 to 15 once per image'),
    (lambda rows: [r[:-2] + '2\n' for r in rows], 'field visible must be 0 or 1, but has \\[2\\]'),
])
def test_malformed_part_locs(cub, lines, message):
    data_dir = cub_utils.get_cub()
    path = os.path.join(data_dir, 'parts', 'part_locs.txt')
    with open(path) as f:
        rows = f.readlines()
    with open(path, 'w') as f:
        f.writelines(lines(rows))
    with pytest.raises(AnnotationError, match=f'CUBKeypointDataset: .*part_locs.txt: {message}'):
        CUBKeypointDataset(data_dir)

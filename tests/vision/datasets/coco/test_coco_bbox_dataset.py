"""COCOBboxDataset: official-layout zips served locally, downloaded, verified, extracted, parsed."""

from __future__ import annotations

import json
import os
import shutil

import numpy
import pytest

from vision.datasets import COCOBboxDataset, coco_bbox_label_names, coco_keypoint_names
from vision.datasets._annotation import AnnotationError
from vision.datasets.coco import coco_bbox_dataset, coco_utils
from vision.utils import assert_is_bbox_dataset
from vision.utils.download import HashMismatchError


def _files(path) -> list[str]:
    return sorted(f for _, _, files in os.walk(path) for f in files if not f.endswith('.lock'))


def test_label_names():
    assert len(coco_bbox_label_names) == 80
    assert coco_bbox_label_names[:3] == ('person', 'bicycle', 'car')
    assert coco_bbox_label_names[-1] == 'toothbrush'
    # The person's keypoints, in the order of person_keypoints_*.json.
    assert list(coco_keypoint_names) == [0] and len(coco_keypoint_names[0]) == 17
    assert coco_keypoint_names[0][:2] == ('nose', 'left_eye')
    assert coco_keypoint_names[0][-1] == 'right_ankle'


@pytest.mark.parametrize('year, split', [('2017', 'train'), ('2017', 'val'),
                                         ('2014', 'minival')])
@pytest.mark.parametrize('use_crowded', [False, True])
@pytest.mark.parametrize('return_area, return_crowded', [(False, False), (True, True),
                                                         (False, True)])
def test_download_and_parse(coco, vision_home, year, split, use_crowded, return_area,
                            return_crowded):
    dataset = COCOBboxDataset(split=split, year=year, use_crowded=use_crowded,
                              return_area=return_area, return_crowded=return_crowded)
    expected = coco['instances'][(year, split)]
    assert dataset.keys == ('img', 'bbox', 'label') + ('area',) * return_area + (
        'crowded',) * return_crowded
    assert len(dataset) == len(expected)
    assert dataset.ids == [im.id for im in expected]
    assert_is_bbox_dataset(dataset, len(coco_bbox_label_names))
    for example, truth in zip(dataset, expected):
        keep = truth.valid & (truth.crowded <= use_crowded)
        numpy.testing.assert_array_equal(example[0], truth.img)
        numpy.testing.assert_array_equal(example[1], truth.bbox[keep])
        numpy.testing.assert_array_equal(example[2], truth.label[keep])
        rest = list(example[3:])
        if return_area:
            area = rest.pop(0)
            assert area.dtype == numpy.float32
            numpy.testing.assert_array_equal(area, truth.area[keep])
        if return_crowded:
            crowded = rest.pop(0)
            assert crowded.dtype == bool and crowded.shape == (len(example[1]),)
            numpy.testing.assert_array_equal(crowded, truth.crowded[keep])
            if not use_crowded:
                assert not crowded.any()


def test_layout_and_single_download(coco, file_server, vision_home):
    COCOBboxDataset(split='train')
    COCOBboxDataset(split='val')
    COCOBboxDataset(split='train', return_area=True)
    root = vision_home / 'datasets' / 'coco'
    assert (root / 'annotations' / 'instances_val2017.json').is_file()
    assert (root / 'images' / 'train2017').is_dir() and (root / 'images' / 'val2017').is_dir()
    assert file_server.count('/coco/annotations_trainval2017.zip') == 1
    assert file_server.count('/coco/train2017.zip') == 1
    dataset = COCOBboxDataset(split='minival', year='2014')
    assert (root / 'annotations' / 'instances_minival2014.json').is_file()
    assert dataset.img_root == str(root / 'images' / 'val2014')


def test_annotations_without_decoding_images(coco, monkeypatch):
    dataset = COCOBboxDataset(split='train')

    def fail(*args, **kwargs):
        raise AssertionError('an image was decoded')

    monkeypatch.setattr(coco_bbox_dataset.COCOInstancesBaseDataset, '_get_image', fail)
    annotations = list(dataset.slice[:, ('bbox', 'label')])
    assert [len(label) for _, label in annotations] == [2] * 3


def test_wrong_checksum_leaves_nothing(coco, vision_home, monkeypatch):
    url, _ = coco_utils.img_resources[('2017', 'val')]
    monkeypatch.setitem(coco_utils.img_resources, ('2017', 'val'), (url, ('sha256', '1' * 64)))
    with pytest.raises(HashMismatchError, match='nothing was written to the cache'):
        COCOBboxDataset(split='val')
    assert _files(vision_home / 'downloads') == []
    assert not (vision_home / 'datasets' / 'coco' / 'images' / 'val2017').exists()


def test_bad_arguments():
    with pytest.raises(ValueError, match="COCOBboxDataset: split must be one of "
                                         r"\['train', 'val'\] for year '2017', but got "
                                         "'minival'"):
        COCOBboxDataset(split='minival')
    with pytest.raises(ValueError, match="COCOBboxDataset: year must be '2014' or '2017'"):
        COCOBboxDataset(year='2015')


@pytest.fixture
def local(coco, tmp_path):
    """A copy of the 2017 data whose val JSON the test rewrites; returns (data_dir, write)."""
    data_dir = tmp_path / 'coco'
    shutil.copytree(coco_utils.get_coco('val', 'val', '2017'), data_dir)
    path = data_dir / 'annotations' / 'instances_val2017.json'
    content = json.loads(path.read_text())

    def write(mutate):
        data = json.loads(json.dumps(content))
        result = mutate(data)
        path.write_text(json.dumps(data if result is None else result))
        return str(path)

    return str(data_dir), write


@pytest.mark.parametrize('mutate, field, problem', [
    (lambda d: [1, 2], 'the top level', 'must be an object with the fields .* but is a list; '
                                        'this is not a COCO annotation file'),
    (lambda d: d.pop('images') and None, 'images', 'must be a list, but is missing'),
    (lambda d: d['images'][1].pop('height') and None, r'images\[1\].height', 'is missing'),
    (lambda d: d['annotations'][3].update(image_id=999), r'annotations\[3\].image_id',
     'is 999, which is not the id of an image'),
    (lambda d: d['categories'][0].update(id='one'), r'categories\[0\].id',
     "must be an integer, but is 'one'"),
])
def test_malformed_json_at_construction(local, mutate, field, problem):
    data_dir, write = local
    path = write(mutate)
    with pytest.raises(AnnotationError, match=f'COCOBboxDataset: {path}: {field} {problem}'):
        COCOBboxDataset(data_dir, split='val')


def test_not_json(local):
    data_dir, write = local
    path = write(lambda d: None)
    with open(path, 'w') as f:
        f.write('{"images": [')
    with pytest.raises(AnnotationError, match='the JSON is not valid'):
        COCOBboxDataset(data_dir, split='val')


def _first_annotation(d):
    """The index of the first annotation of the dataset's first image (smallest id)."""
    first = min(im['id'] for im in d['images'])
    return next(k for k, a in enumerate(d['annotations']) if a['image_id'] == first)


@pytest.mark.parametrize('change, field, problem', [
    ({'bbox': [1, 2, 3]}, 'bbox', r'must be a list \[x, y, width, height\], but is \[1, 2, 3\]'),
    ({'bbox': [30, 2, 50, 3]}, 'bbox', r'\[30, 2, 50, 3\] has a negative size or is not '
                                       'inside the image of width'),
    ({'bbox': [3, 2, -1, 3]}, 'bbox', r'\[3, 2, -1, 3\] has a negative size'),
    ({'category_id': 4}, 'category_id', 'is 4, which is not the id of a category'),
    ({'iscrowd': 'no'}, 'iscrowd', "must be 0 or 1, but is 'no'"),
    ({'area': None}, 'area', 'must be a number, but is None'),
])
def test_malformed_annotation_when_read(local, change, field, problem):
    data_dir, write = local
    holder = {}

    def mutate(d):
        holder['k'] = _first_annotation(d)
        d['annotations'][holder['k']].update(change)

    path = write(mutate)
    dataset = COCOBboxDataset(data_dir, split='val')
    with pytest.raises(AnnotationError, match=fr'{path}: annotations\[{holder["k"]}\].{field} '
                                              f'{problem}'):
        dataset[0]
    assert len(dataset[1]) == 3


def test_box_overshooting_by_rounding_is_clipped(local):
    data_dir, write = local

    def mutate(d):
        first = min(d['images'], key=lambda im: im['id'])
        k = _first_annotation(d)
        d['annotations'][k]['bbox'] = [-0.5, 1, first['width'] + 0.8, 2]

    write(mutate)
    bbox = COCOBboxDataset(data_dir, split='val')[0][1]
    width = COCOBboxDataset(data_dir, split='val')[0][0].shape[2]
    numpy.testing.assert_array_equal(bbox[0], [1, 0, 3, width])

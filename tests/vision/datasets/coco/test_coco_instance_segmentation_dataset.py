"""COCOInstanceSegmentationDataset: polygons, compressed and uncompressed RLEs, crowds."""

from __future__ import annotations

import json
import shutil

import numpy
import pytest

from vision.datasets import COCOInstanceSegmentationDataset, coco_instance_segmentation_label_names
from vision.datasets._annotation import AnnotationError
from vision.datasets.coco import coco_instances_base_dataset, coco_utils
from vision.utils import assert_is_instance_segmentation_dataset


@pytest.mark.parametrize('year, split', [('2017', 'train'), ('2017', 'val'),
                                         ('2014', 'minival')])
@pytest.mark.parametrize('use_crowded', [False, True])
def test_download_and_parse(coco, year, split, use_crowded):
    dataset = COCOInstanceSegmentationDataset(split=split, year=year, use_crowded=use_crowded,
                                              return_crowded=True, return_area=True,
                                              return_bbox=True)
    expected = coco['instances'][(year, split)]
    assert dataset.keys == ('img', 'mask', 'label', 'area', 'crowded', 'bbox')
    assert_is_instance_segmentation_dataset(dataset,
                                            len(coco_instance_segmentation_label_names))
    for (img, mask, label, area, crowded, bbox), truth in zip(dataset, expected):
        keep = truth.valid & (truth.crowded <= use_crowded)
        numpy.testing.assert_array_equal(img, truth.img)
        assert mask.dtype == bool and mask.shape == (keep.sum(), *img.shape[1:])
        numpy.testing.assert_array_equal(mask, truth.mask[keep])
        numpy.testing.assert_array_equal(label, truth.label[keep])
        numpy.testing.assert_array_equal(area, truth.area[keep])
        numpy.testing.assert_array_equal(crowded, truth.crowded[keep])
        numpy.testing.assert_array_equal(bbox, truth.bbox[keep])


def test_default_keys_and_masks_only(coco, monkeypatch):
    dataset = COCOInstanceSegmentationDataset(split='val')
    assert dataset.keys == ('img', 'mask', 'label')

    def fail(*args, **kwargs):
        raise AssertionError('an image was decoded')

    monkeypatch.setattr(coco_instances_base_dataset, 'read_image', fail)
    masks = list(dataset.slice[:, 'mask'])
    assert [len(m) for m in masks] == [2, 2]


@pytest.fixture
def local(coco, tmp_path):
    data_dir = tmp_path / 'coco'
    shutil.copytree(coco_utils.get_coco('val', 'val', '2017'), data_dir)
    path = data_dir / 'annotations' / 'instances_val2017.json'
    content = json.loads(path.read_text())
    first = min(im['id'] for im in content['images'])
    index = [k for k, a in enumerate(content['annotations']) if a['image_id'] == first]
    height = next(im['height'] for im in content['images'] if im['id'] == first)
    width = next(im['width'] for im in content['images'] if im['id'] == first)

    def write(position, segmentation):
        content['annotations'][index[position]]['segmentation'] = segmentation
        path.write_text(json.dumps(content))
        return COCOInstanceSegmentationDataset(str(data_dir), split='val'), index[position]

    return write, (height, width)


@pytest.mark.parametrize('position, segmentation, field, problem', [
    (0, [[1, 2, 3]], r'segmentation\[0\]', 'must be a list of an even number of coordinates'),
    (0, 'abc', 'segmentation', "must be polygons or an RLE object, but is 'abc'"),
    (0, {'size': [3, 4]}, 'segmentation', 'must be a list of polygons or an object with counts'),
    (1, {'size': [5, 5], 'counts': '0'}, r'segmentation.size',
     r'is \[5, 5\], but the image has \(height, width\)'),
    (1, {'size': 'HW', 'counts': [1]}, r'segmentation.size', "must be \\[height, width\\]"),
    (1, 'SIZE', 'segmentation', 'must be polygons or an RLE object'),
    (1, 'COUNTS', r'segmentation.counts', r'add up to 7 pixels, but the mask has'),
    (1, 'NEGATIVE', r'segmentation.counts', 'holds negative run lengths'),
    (1, 'CHARS', r'segmentation.counts', "holds characters outside '0' to 'o'"),
    (1, 'UNFINISHED', r'segmentation.counts', 'ends inside a number'),
])
def test_malformed_segmentation(local, position, segmentation, field, problem):
    write, (height, width) = local
    placeholders = {
        'SIZE': 'SIZE',
        'COUNTS': {'size': [height, width], 'counts': [3, 4]},
        'NEGATIVE': {'size': [height, width], 'counts': [height * width + 2, -2]},
        'CHARS': {'size': [height, width], 'counts': '0~'},
        'UNFINISHED': {'size': [height, width], 'counts': '0P'},
    }
    if isinstance(segmentation, str) and segmentation in placeholders:
        segmentation = placeholders[segmentation]
    dataset, k = write(position, segmentation)
    with pytest.raises(AnnotationError, match=fr'COCOInstanceSegmentationDataset: .*'
                                              fr'instances_val2017.json: annotations\[{k}\].'
                                              f'{field} {problem}'):
        dataset[0]
    assert len(dataset[1]) == 3

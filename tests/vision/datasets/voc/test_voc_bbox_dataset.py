"""VOCBboxDataset: official-layout tars served locally, downloaded, verified, extracted, parsed."""

from __future__ import annotations

import hashlib
import os
import shutil

import numpy
import pytest

from vision.datasets import VOCBboxDataset, voc_bbox_label_names
from vision.datasets._annotation import AnnotationError
from vision.datasets.voc import voc_bbox_dataset, voc_utils
from vision.utils import assert_is_bbox_dataset
from vision.utils.download import HashMismatchError

_SPLIT_YEARS = [(s, y) for s in ('train', 'val', 'trainval') for y in ('2007', '2012')] + [
    ('test', '2007')]
_DIFFICULT = [(True, True), (True, False), (False, True), (False, False)]


def _files(path) -> list[str]:
    return sorted(f for _, _, files in os.walk(path) for f in files if not f.endswith('.lock'))


def _archive_key(split, year):
    return '2007_test' if split == 'test' else year


@pytest.mark.parametrize('split, year', _SPLIT_YEARS)
@pytest.mark.parametrize('use_difficult, return_difficult', _DIFFICULT)
def test_download_and_parse(voc, vision_home, split, year, use_difficult, return_difficult):
    dataset = VOCBboxDataset(split=split, year=year, use_difficult=use_difficult,
                             return_difficult=return_difficult)
    expected = voc[_archive_key(split, year)].splits[split]
    assert len(dataset) == len(expected)
    assert dataset.keys == ('img', 'bbox', 'label') + (('difficult',) * return_difficult)
    assert dataset.data_dir == str(vision_home / 'datasets' / 'voc' / 'VOCdevkit' /
                                   f'VOC{year}')
    assert_is_bbox_dataset(dataset, len(voc_bbox_label_names))
    for example, truth in zip(dataset, expected):
        keep = numpy.ones(len(truth.label), dtype=bool) if use_difficult else ~truth.difficult
        numpy.testing.assert_array_equal(example[0], truth.img)
        numpy.testing.assert_array_equal(example[1], truth.bbox[keep])
        numpy.testing.assert_array_equal(example[2], truth.label[keep])
        assert example[1].dtype == numpy.float32 and example[2].dtype == numpy.int32
        if return_difficult:
            difficult = example[3]
            assert difficult.dtype == bool and difficult.shape == (len(example[1]),)
            numpy.testing.assert_array_equal(difficult, truth.difficult[keep])
            if not use_difficult:
                assert not difficult.any()


def test_downloads_each_archive_once(voc, file_server):
    for split in ('train', 'val', 'trainval', 'test'):
        VOCBboxDataset(split=split, year='2007')
    VOCBboxDataset(split='val', year='2007')
    assert file_server.count('/pascal/VOC/VOCtrainval_06-Nov-2007.tar') == 1
    assert file_server.count('/pascal/VOC/VOCtest_06-Nov-2007.tar') == 1
    assert file_server.count('/pascal/VOC/VOCtrainval_11-May-2012.tar') == 0


def test_annotations_without_decoding_images(voc, monkeypatch):
    dataset = VOCBboxDataset(split='trainval', year='2012', return_difficult=True)

    def fail(*args, **kwargs):
        raise AssertionError('an image was decoded')

    monkeypatch.setattr(voc_bbox_dataset, 'read_image', fail)
    annotations = list(dataset.slice[:, ('bbox', 'label')])
    expected = voc['2012'].splits['trainval']
    assert len(annotations) == len(expected)
    for (bbox, label), truth in zip(annotations, expected):
        numpy.testing.assert_array_equal(bbox, truth.bbox[~truth.difficult])
        numpy.testing.assert_array_equal(label, truth.label[~truth.difficult])
    difficult = list(dataset.slice[:, 'difficult'])
    assert all(not d.any() for d in difficult)


def test_wrong_checksum_leaves_nothing(voc, vision_home, monkeypatch):
    url, _ = voc_utils.resources['2012']
    monkeypatch.setitem(voc_utils.resources, '2012', (url, ('sha256', '0' * 64)))
    with pytest.raises(HashMismatchError, match='could not download .*nothing was written '
                                                'to the cache'):
        VOCBboxDataset(split='train', year='2012')
    assert _files(vision_home / 'downloads') == []
    assert not (vision_home / 'datasets' / 'voc' / 'VOCdevkit').exists()


def test_corrupt_archive_leaves_nothing_and_recovers(voc, file_server, vision_home,
                                                     monkeypatch):
    good_url, good_checksum = voc_utils.resources['2007']
    truncated = voc['2007'].data[:len(voc['2007'].data) // 2 + 100]
    url = file_server.serve('/broken/VOCtrainval_06-Nov-2007.tar', truncated)
    monkeypatch.setitem(voc_utils.resources, '2007',
                        (url, ('sha256', hashlib.sha256(truncated).hexdigest())))
    with pytest.raises(ValueError, match='VOCBboxDataset: the archive .* is corrupt or '
                                         'truncated'):
        VOCBboxDataset(split='train', year='2007')
    assert _files(vision_home / 'downloads') == []
    assert not (vision_home / 'datasets' / 'voc' / 'VOCdevkit').exists()
    monkeypatch.setitem(voc_utils.resources, '2007', (good_url, good_checksum))
    assert len(VOCBboxDataset(split='train', year='2007')) == 3


def test_local_data_dir(voc):
    data_dir = voc_utils.get_voc('2012', 'train')
    dataset = VOCBboxDataset(data_dir, split='val', year='2012')
    assert dataset.ids == [e.id for e in voc['2012'].splits['val']]


@pytest.mark.parametrize('kwargs, message', [
    ({'split': 'test', 'year': '2012'}, "split 'test' is only available for year '2007'"),
    ({'split': 'minival'}, "split must be one of \\('train', 'val', 'trainval', 'test'\\)"),
    ({'year': '2010'}, "year must be '2007' or '2012', but got '2010'"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match='VOCBboxDataset: ' + message):
        VOCBboxDataset(data_dir='/nonexistent', **kwargs)


def test_missing_split_file(tmp_path):
    with pytest.raises(FileNotFoundError, match='the split file .*train.txt does not exist; '
                                                'data_dir must be the VOCdevkit/VOC<year>'):
        VOCBboxDataset(str(tmp_path), split='train')


_OBJECT = ('<object><name>{name}</name>{difficult}<bndbox><xmin>{xmin}</xmin>'
           '<ymin>3</ymin><xmax>{xmax}</xmax><ymax>8</ymax></bndbox></object>')


def _xml(objects: str, size: str = '<size><width>20</width><height>10</height></size>'):
    return f'<annotation><filename>a.jpg</filename>{size}{objects}</annotation>'


def _obj(name='dog', difficult='<difficult>0</difficult>', xmin='2', xmax='20'):
    return _OBJECT.format(name=name, difficult=difficult, xmin=xmin, xmax=xmax)


@pytest.mark.parametrize('xml, field, problem', [
    ('<annotation><size>', 'the XML', 'is not well-formed'),
    (_xml(_obj(), size=''), 'annotation/size/height', 'is missing'),
    (_xml(_obj() + _obj().replace('<xmin>2</xmin>', '')), 'object\\[2\\]/bndbox/xmin',
     'is missing'),
    (_xml(_obj(xmin='two')), 'object\\[1\\]/bndbox/xmin', "must be a number, but is 'two'"),
    (_xml(_obj(name='dragon')), 'object\\[1\\]/name', "is 'dragon', which is not one of"),
    (_xml(_obj(xmax='22')), 'object\\[1\\]/bndbox',
     r'\(xmin, ymin, xmax, ymax\) = \(2, 3, 22, 8\) has a minimum above its maximum or lies '
     'outside the image of width 20 and height 10'),
    (_xml(_obj(xmin='9', xmax='5')), 'object\\[1\\]/bndbox', '.* has a minimum above'),
    (_xml(_obj(xmin='0')), 'object\\[1\\]/bndbox', '.* lies outside'),
])
def test_malformed_annotation(tmp_path, xml, field, problem):
    path = tmp_path / 'a.xml'
    path.write_text(xml)
    with pytest.raises(AnnotationError, match=f'Demo: {path}: {field} {problem}') as info:
        voc_utils.parse_voc_bbox_annotation(str(path), voc_bbox_label_names, 'Demo')
    assert info.value.path == str(path)


def test_annotation_edge_cases(tmp_path):
    """A box on the last pixel row and column, a missing <difficult>, a name in capitals with
    spaces, no objects, fractional coordinates."""
    path = tmp_path / 'a.xml'
    path.write_text(_xml(_obj(name=' Dog ', difficult='', xmin='1.5', xmax='21')))
    bbox, label, difficult = voc_utils.parse_voc_bbox_annotation(str(path),
                                                                 voc_bbox_label_names)
    numpy.testing.assert_array_equal(bbox, [[2, 0.5, 7, 20]])
    assert label.tolist() == [voc_bbox_label_names.index('dog')]
    assert difficult.tolist() == [False]
    path.write_text(_xml(''))
    bbox, label, difficult = voc_utils.parse_voc_bbox_annotation(str(path),
                                                                 voc_bbox_label_names)
    assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
    assert label.shape == (0,) and label.dtype == numpy.int32
    assert difficult.shape == (0,) and difficult.dtype == bool


def test_malformed_file_in_dataset(voc, tmp_path):
    data_dir = voc_utils.get_voc('2007', 'train')
    local = tmp_path / 'VOC2007'
    shutil.copytree(data_dir, local)
    first = voc['2007'].splits['train'][0].id
    (local / 'Annotations' / f'{first}.xml').write_text(_xml(_obj(xmax='30')))
    dataset = VOCBboxDataset(str(local), split='train', year='2007')
    with pytest.raises(AnnotationError, match=f'VOCBboxDataset: .*{first}.xml: '
                                              r'object\[1\]/bndbox'):
        dataset[0]
    assert len(dataset[1]) == 3

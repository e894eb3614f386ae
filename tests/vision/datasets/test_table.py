"""read_table: typed columns, and errors that name the file, the line and the field."""

from __future__ import annotations

import pytest

from vision.datasets._annotation import AnnotationError
from vision.datasets._table import read_table

_COLUMNS = [('image_id', int), ('x', float), ('path', str)]


def test_columns(tmp_path):
    path = tmp_path / 't.txt'
    path.write_text('1 2.5 a/b.jpg\n\n2 -1e3 c.jpg\n')
    assert read_table('F', str(path), _COLUMNS) == [[1, 2], [2.5, -1000.0], ['a/b.jpg', 'c.jpg']]


def test_header(tmp_path):
    path = tmp_path / 't.txt'
    path.write_text('image_id x path\n1 2 p\n')
    assert read_table('F', str(path), _COLUMNS, header=['image_id', 'x', 'path'])[2] == ['p']
    with pytest.raises(AnnotationError, match=r"F: .*t\.txt: line 1 must be the header 'id x "
                                              r"path', but is 'image_id x path'"):
        read_table('F', str(path), _COLUMNS, header=['id', 'x', 'path'])


def test_empty_file(tmp_path):
    path = tmp_path / 't.txt'
    path.write_text('')
    assert read_table('F', str(path), _COLUMNS) == [[], [], []]


@pytest.mark.parametrize('text, message', [
    ('1 2 p\n1 2\n', r"line 2 must have 3 fields \(image_id x path\), but has 2: '1 2'"),
    ('one 2 p\n', "line 1, field image_id must be an integer, but is 'one'"),
    ('1 2.5.1 p\n', "line 1, field x must be a number, but is '2.5.1'"),
])
def test_malformed(tmp_path, text, message):
    path = tmp_path / 't.txt'
    path.write_text(text)
    with pytest.raises(AnnotationError, match=r'F: .*t\.txt: ' + message) as info:
        read_table('F', str(path), _COLUMNS)
    assert info.value.path == str(path)


def test_missing(tmp_path):
    with pytest.raises(FileNotFoundError, match=r'F: the annotation file .*nope\.txt does not'):
        read_table('F', str(tmp_path / 'nope.txt'), _COLUMNS)

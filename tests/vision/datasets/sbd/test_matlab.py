"""The MAT-file reader of the SBD loader against files written by SciPy
(tests/data/make_matlab_fixtures.py) and by the tests' own writer (big-endian, small
elements)."""

from __future__ import annotations

import os

import numpy
import pytest

from vision.datasets._matlab import MatFileError, loadmat

DATA = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'data')


def _sbd_segmentation():
    return ((numpy.arange(35).reshape(7, 5) * 7) % 21).astype(numpy.uint8)


def test_sbd_like_class_file_uncompressed():
    content = loadmat(os.path.join(DATA, 'matlab_sbd_cls.mat'))
    assert list(content) == ['GTcls']
    gt = content['GTcls']
    seg = _sbd_segmentation()
    assert gt['Segmentation'].dtype == numpy.uint8
    numpy.testing.assert_array_equal(gt['Segmentation'], seg)
    assert gt['Boundaries'].shape == (3, 1) and gt['Boundaries'].dtype == object
    for k in range(3):
        boundary = gt['Boundaries'][k, 0]
        assert boundary.dtype == bool
        numpy.testing.assert_array_equal(boundary, seg % (k + 2) == 0)
    numpy.testing.assert_array_equal(gt['CategoriesPresent'],
                                     numpy.unique(seg[seg > 0])[:, None])


def test_sbd_like_instance_file_compressed():
    gt = loadmat(os.path.join(DATA, 'matlab_sbd_inst_compressed.mat'))['GTinst']
    numpy.testing.assert_array_equal(gt['Segmentation'],
                                     numpy.arange(35).reshape(7, 5) // 9)
    numpy.testing.assert_array_equal(gt['Categories'], [[3], [7], [1], [20]])
    assert gt['Categories'].dtype == numpy.uint8


def test_types():
    m = loadmat(os.path.join(DATA, 'matlab_types.mat'))
    assert m['text'] == 'hello'
    numpy.testing.assert_array_equal(m['x'], numpy.arange(12.0).reshape(3, 4))
    numpy.testing.assert_array_equal(m['c'], [[1 + 2j, 3 - 1j]])
    assert m['empty'].shape == (0, 3)
    assert m['i16'].dtype == numpy.int16 and m['i16'].tolist() == [[-3, 4]]
    assert m['i64'].dtype == numpy.int64 and m['i64'].tolist() == [[-(2 ** 40), 7]]
    assert m['f32'].dtype == numpy.float32 and m['f32'].tolist() == [[0.5, -2.25]]
    assert m['logical'].dtype == bool and m['logical'].tolist() == [[True, False, True]]
    numpy.testing.assert_array_equal(m['cube'], numpy.arange(24).reshape(2, 3, 4))
    assert m['cell'].shape == (1, 2) and m['cell'][0, 0] == 'ab'
    numpy.testing.assert_array_equal(m['cell'][0, 1], [[1, 2]])
    records = m['records']
    assert records.shape == (1, 2)
    assert records[0, 0]['b'] == 'x' and records[0, 0]['a'].tolist() == [[1.5]]
    assert records[0, 1]['b'] == 'yz' and records[0, 1]['a'].dtype == numpy.uint16
    numpy.testing.assert_array_equal(m['sparse'], [[0, 1.5], [0, 0], [2, 0]])


@pytest.mark.parametrize('order', ['<', '>'])
@pytest.mark.parametrize('compress', [False, True])
def test_own_writer(tmp_path, write_mat, order, compress):
    seg = numpy.arange(6, dtype=numpy.uint8).reshape(2, 3)
    cell = numpy.empty((2, 1), dtype=object)
    cell[0, 0], cell[1, 0] = numpy.array([[True]]), 'ok'
    path = tmp_path / 'a.mat'
    path.write_bytes(write_mat({'S': {'Segmentation': seg, 'C': cell,
                                      'one': numpy.array([[7]], numpy.int8)},
                                'y': numpy.array([[1.25, -3.0]])}, compress, order))
    content = loadmat(path)
    numpy.testing.assert_array_equal(content['S']['Segmentation'], seg)
    assert content['S']['C'][1, 0] == 'ok' and content['S']['C'][0, 0].tolist() == [[True]]
    assert content['S']['one'].tolist() == [[7]] and content['S']['one'].dtype == numpy.int8
    assert content['y'].tolist() == [[1.25, -3.0]]


def test_errors(tmp_path, write_mat):
    path = tmp_path / 'a.mat'
    path.write_bytes(b'short')
    with pytest.raises(MatFileError, match='a.mat is too short to be a MAT-file'):
        loadmat(path)
    path.write_bytes(b'MATLAB 7.3 MAT-file'.ljust(128, b' '))
    with pytest.raises(MatFileError, match=r'is a MATLAB 7.3 \(HDF5\) file'):
        loadmat(path)
    path.write_bytes(b'x' * 128)
    with pytest.raises(MatFileError, match='is not a level 5 MAT-file'):
        loadmat(path)
    data = write_mat({'y': numpy.arange(20.0)[None]}, compress=False)
    path.write_bytes(data[:-30])
    with pytest.raises(MatFileError, match='a.mat is truncated'):
        loadmat(path)
    data = write_mat({'y': numpy.arange(20.0)[None]}, compress=True)
    path.write_bytes(data[:-5] + b'\0' * 5)
    with pytest.raises(MatFileError, match='a.mat is corrupt or truncated'):
        loadmat(path)

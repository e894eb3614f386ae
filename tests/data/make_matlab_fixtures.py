"""Writes the MAT-file fixtures of tests/vision/datasets/test_matlab.py with SciPy.

Run with a Python that has SciPy (the project does not depend on it):
``python tests/data/make_matlab_fixtures.py``. The values are formulas, repeated in the test.
"""

import os

import numpy
import scipy.io
import scipy.sparse

HERE = os.path.dirname(os.path.abspath(__file__))


def sbd_like():
    seg = ((numpy.arange(35).reshape(7, 5) * 7) % 21).astype(numpy.uint8)
    boundaries = numpy.empty((3, 1), dtype=object)
    for k in range(3):
        boundaries[k, 0] = scipy.sparse.csc_matrix(seg % (k + 2) == 0)
    cls = {'Boundaries': boundaries, 'Segmentation': seg,
           'CategoriesPresent': numpy.unique(seg[seg > 0])[:, None].astype(numpy.float64)}
    inst = {'Segmentation': (numpy.arange(35).reshape(7, 5) // 9).astype(numpy.uint8),
            'Categories': numpy.array([[3], [7], [1], [20]], dtype=numpy.uint8)}
    return cls, inst


def types():
    cell = numpy.empty((1, 2), dtype=object)
    cell[0, 0] = 'ab'
    cell[0, 1] = numpy.array([[1, 2]], dtype=numpy.int32)
    records = numpy.empty((1, 2), dtype=[('a', object), ('b', object)])
    records[0, 0] = (1.5, 'x')
    records[0, 1] = (numpy.array([[2, 3]], dtype=numpy.uint16), 'yz')
    return {'text': 'hello', 'x': numpy.arange(12.0).reshape(3, 4),
            'c': numpy.array([[1 + 2j, 3 - 1j]]), 'empty': numpy.zeros((0, 3)),
            'i16': numpy.array([[-3, 4]], dtype=numpy.int16),
            'i64': numpy.array([[-(2 ** 40), 7]], dtype=numpy.int64),
            'f32': numpy.array([[0.5, -2.25]], dtype=numpy.float32),
            'logical': numpy.array([[True, False, True]]),
            'cube': numpy.arange(24, dtype=numpy.uint8).reshape(2, 3, 4),
            'cell': cell, 'records': records,
            'sparse': scipy.sparse.csc_matrix(numpy.array([[0, 1.5], [0, 0], [2, 0]]))}


if __name__ == '__main__':
    cls, inst = sbd_like()
    scipy.io.savemat(os.path.join(HERE, 'matlab_sbd_cls.mat'), {'GTcls': cls},
                     do_compression=False)
    scipy.io.savemat(os.path.join(HERE, 'matlab_sbd_inst_compressed.mat'), {'GTinst': inst},
                     do_compression=True)
    scipy.io.savemat(os.path.join(HERE, 'matlab_types.mat'), types(), do_compression=True)

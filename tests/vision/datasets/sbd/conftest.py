"""A small SBD archive in the layout of ``benchmark.tgz``, served locally, with MAT-files written
by a minimal level 5 writer."""

from __future__ import annotations

import hashlib
import io
import struct
import tarfile
import zlib

import numpy
import pytest
from PIL import Image

from vision.datasets.sbd import sbd_utils

_CLASSES = {'f8': 6, 'f4': 7, 'i1': 8, 'u1': 9, 'i2': 10, 'u2': 11, 'i4': 12, 'u4': 13,
            'i8': 14, 'u8': 15}
_MI = {'i1': 1, 'u1': 2, 'i2': 3, 'u2': 4, 'i4': 5, 'u4': 6, 'f4': 7, 'f8': 9, 'i8': 12,
       'u8': 13}


def _element(order: str, mi_type: int, data: bytes) -> bytes:
    if len(data) <= 4:
        return struct.pack(order + 'I', len(data) << 16 | mi_type) + data.ljust(4, b'\0')
    return struct.pack(order + 'II', mi_type, len(data)) + data + b'\0' * (-len(data) % 8)


def _matrix(order: str, name: str, value) -> bytes:
    """A miMATRIX element: a dict is a 1 x 1 struct, an object array a cell array, a str a
    char row, a bool array a logical array, other arrays numeric."""
    if isinstance(value, dict):
        shape, array_class, flags = (1, 1), 2, 0
        length = max(len(k) for k in value) + 1
        body = (_element(order, 5, struct.pack(order + 'i', length))
                + _element(order, 1, b''.join(k.encode().ljust(length, b'\0') for k in value))
                + b''.join(_matrix(order, '', v) for v in value.values()))
    elif isinstance(value, str):
        shape, array_class, flags = (1, len(value)), 4, 0
        body = _element(order, 4, numpy.array([ord(c) for c in value], order + 'u2').tobytes())
    elif value.dtype == object:
        shape, array_class, flags = value.shape, 1, 0
        body = b''.join(_matrix(order, '', v) for v in value.ravel(order='F'))
    else:
        logical = value.dtype == bool
        array = value.astype('u1') if logical else value
        code = array.dtype.str[1:]
        shape, array_class, flags = value.shape, _CLASSES[code], 0x200 * logical
        body = _element(order, _MI[code], array.astype(order + code).tobytes(order='F'))
    content = (_element(order, 6, struct.pack(order + 'II', array_class | flags, 0))
               + _element(order, 5, numpy.array(shape, order + 'i4').tobytes())
               + _element(order, 1, name.encode()) + body)
    return struct.pack(order + 'II', 14, len(content)) + content


def mat_bytes(variables: dict, compress: bool = True, order: str = '<') -> bytes:
    """The bytes of a level 5 MAT-file holding ``variables``."""
    header = b'MATLAB 5.0 MAT-file, written by the tests'.ljust(116, b' ') + b'\0' * 8
    header += struct.pack(order + 'H', 0x0100) + (b'IM' if order == '<' else b'MI')
    out = [header]
    for name, value in variables.items():
        element = _matrix(order, name, value)
        if compress:
            packed = zlib.compress(element)
            element = struct.pack(order + 'II', 15, len(packed)) + packed
        out.append(element)
    return b''.join(out)


@pytest.fixture
def write_mat():
    return mat_bytes


def make_example(rng: numpy.random.Generator):
    """An image with 1 to 3 rectangular instances; returns (jpeg bytes, class map, instance
    map, labels of the visible instances in id order)."""
    height, width = (int(v) for v in rng.integers(12, 30, 2))
    class_map = numpy.zeros((height, width), numpy.uint8)
    inst_map = numpy.zeros((height, width), numpy.uint8)
    labels = []
    for k in range(1, int(rng.integers(1, 4)) + 1):
        y0, x0 = rng.integers(0, height - 3), rng.integers(0, width - 3)
        cls = int(rng.integers(1, 21))
        class_map[y0:y0 + 5, x0:x0 + 6] = cls
        inst_map[y0:y0 + 5, x0:x0 + 6] = k
        labels.append(cls - 1)
    visible = [k for k in range(1, len(labels) + 1) if (inst_map == k).any()]
    buffer = io.BytesIO()
    Image.fromarray(rng.integers(0, 256, (height, width, 3), dtype=numpy.uint8)).save(
        buffer, format='jpeg')
    return buffer.getvalue(), class_map, inst_map, [labels[k - 1] for k in visible], visible


def _tar(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode='w:gz') as archive:
        for name, data in sorted(entries.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.fixture
def sbd(file_server, vision_home, monkeypatch):
    """Serves ``benchmark.tgz`` (SBD's train.txt and val.txt, img/, cls/, inst/) and
    ``train_noval.txt``; returns ``{id: (jpeg, class map, instance map, labels, ids)}`` and
    the train_noval ids."""
    rng = numpy.random.default_rng(0)
    ids = [f'2008_{k:06d}' for k in range(1, 8)]
    examples = {i: make_example(rng) for i in ids}
    base = 'benchmark_RELEASE/dataset'
    entries = {f'{base}/train.txt': '\n'.join(ids[:5]).encode() + b'\n',
               f'{base}/val.txt': '\n'.join(ids[5:]).encode() + b'\n',
               'benchmark_RELEASE/README': b'SBD\n'}
    for k, (id_, (jpeg, class_map, inst_map, labels, _)) in enumerate(examples.items()):
        entries[f'{base}/img/{id_}.jpg'] = jpeg
        boundaries = numpy.empty((20, 1), dtype=object)
        for row in range(20):
            boundaries[row, 0] = numpy.zeros(class_map.shape, bool)
        entries[f'{base}/cls/{id_}.mat'] = mat_bytes({'GTcls': {
            'Boundaries': boundaries, 'Segmentation': class_map,
            'CategoriesPresent': numpy.unique(class_map[class_map > 0])[:, None]}},
            compress=k % 2 == 0)
        entries[f'{base}/inst/{id_}.mat'] = mat_bytes({'GTinst': {
            'Segmentation': inst_map, 'Boundaries': boundaries[:len(labels)],
            'Categories': numpy.array(labels, numpy.uint8)[:, None] + 1}},
            compress=k % 2 == 1, order='>' if k == 3 else '<')
    train_noval = [ids[0], ids[2], ids[3]]
    archive = _tar(entries)
    noval = ''.join(f'{i}\n' for i in train_noval).encode()
    urls = {'benchmark': file_server.serve('/sbd/benchmark.tgz', archive),
            'train_noval': file_server.serve('/SBD/train_noval.txt', noval)}
    for key, data in (('benchmark', archive), ('train_noval', noval)):
        monkeypatch.setitem(sbd_utils.resources, key,
                            (urls[key], ('sha256', hashlib.sha256(data).hexdigest())))
    return examples, train_noval

"""Small PASCAL VOC archives in the exact layout of the official tars, served locally.

``VOCtrainval_06-Nov-2007.tar`` and ``VOCtest_06-Nov-2007.tar`` hold ``VOCdevkit/VOC2007`` and
``VOCtrainval_11-May-2012.tar`` holds ``VOCdevkit/VOC2012``, each with ``Annotations/*.xml``,
``JPEGImages/*.jpg``, ``ImageSets/Main/*.txt`` (the split lists and the per-class lists),
``ImageSets/Segmentation/*.txt``, ``SegmentationClass/*.png`` and ``SegmentationObject/*.png``
(palette PNGs).
"""

from __future__ import annotations

import hashlib
import io
import tarfile
from dataclasses import dataclass, field

import numpy
import pytest
from PIL import Image

from vision.datasets import voc_bbox_label_names, voc_semantic_segmentation_label_colors
from vision.datasets.voc import voc_utils

# Splits of each archive: (ids of train, ids of val); test is the whole test archive.
_N_TRAIN, _N_VAL, _N_TEST = 3, 2, 2
_PALETTE = numpy.zeros((256, 3), dtype=numpy.uint8)
_PALETTE[:21] = voc_semantic_segmentation_label_colors
_PALETTE[255] = (224, 224, 192)


@dataclass
class Example:
    """What one VOC example holds: the image, its objects and its segmentation maps."""

    id: str
    jpeg: bytes
    size: tuple[int, int]
    bbox: numpy.ndarray  # 0-based, (R, 4)
    label: numpy.ndarray
    difficult: numpy.ndarray
    class_map: numpy.ndarray  # (H, W) uint8: 0 background, 1..20 classes, 255 border
    object_map: numpy.ndarray  # (H, W) uint8: 0 background, 1..R instances, 255 border

    @property
    def img(self) -> numpy.ndarray:
        """The image as read_image returns it: float32 (3, H, W)."""
        return decode(self.jpeg)


@dataclass
class VOCArchive:
    """The bytes of one tar and the examples of each split it lists."""

    data: bytes
    splits: dict[str, list[Example]] = field(default_factory=dict)


def palette_png(array: numpy.ndarray) -> bytes:
    image = Image.fromarray(array.astype(numpy.uint8), mode='P')
    image.putpalette(_PALETTE.ravel().tolist())
    buffer = io.BytesIO()
    image.save(buffer, format='png')
    return buffer.getvalue()


def jpeg(array: numpy.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format='jpeg', quality=90)
    return buffer.getvalue()


def decode(data: bytes) -> numpy.ndarray:
    """An encoded image as read_image returns it: float32 (3, H, W)."""
    with Image.open(io.BytesIO(data)) as image:
        return numpy.asarray(image.convert('RGB'), dtype=numpy.float32).transpose(2, 0, 1)


def annotation_xml(example: Example, folder: str) -> bytes:
    height, width = example.size
    objects = ''.join(
        f'<object><name>{voc_bbox_label_names[lbl]}</name><pose>Unspecified</pose>'
        f'<truncated>0</truncated><difficult>{int(dif)}</difficult><bndbox>'
        f'<xmin>{int(b[1]) + 1}</xmin><ymin>{int(b[0]) + 1}</ymin>'
        f'<xmax>{int(b[3]) + 1}</xmax><ymax>{int(b[2]) + 1}</ymax></bndbox></object>'
        for b, lbl, dif in zip(example.bbox, example.label, example.difficult))
    return (f'<annotation><folder>{folder}</folder><filename>{example.id}.jpg</filename>'
            f'<source><database>The VOC Database</database></source>'
            f'<size><width>{width}</width><height>{height}</height><depth>3</depth></size>'
            f'<segmented>1</segmented>{objects}</annotation>').encode()


def make_example(rng: numpy.random.Generator, id_: str) -> Example:
    """An image with two to four rectangular objects, one of them difficult, whose class and
    object maps paint each object's box (later objects on top) with a 1-pixel border."""
    height, width = rng.integers(20, 40, 2)
    n = int(rng.integers(2, 5))
    y0 = rng.integers(0, height - 6, n)
    x0 = rng.integers(0, width - 6, n)
    y1 = numpy.minimum(y0 + rng.integers(4, 15, n), height - 1)
    x1 = numpy.minimum(x0 + rng.integers(4, 15, n), width - 1)
    bbox = numpy.stack([y0, x0, y1, x1], axis=1).astype(numpy.float32)
    label = rng.integers(0, 20, n).astype(numpy.int32)
    difficult = numpy.zeros(n, dtype=bool)
    difficult[int(rng.integers(0, n))] = True
    class_map = numpy.zeros((height, width), dtype=numpy.uint8)
    object_map = numpy.zeros((height, width), dtype=numpy.uint8)
    for k in range(n):
        rows, cols = slice(y0[k], y1[k] + 1), slice(x0[k], x1[k] + 1)
        class_map[rows, cols] = 255
        object_map[rows, cols] = 255
        inner = slice(y0[k] + 1, y1[k]), slice(x0[k] + 1, x1[k])
        class_map[inner] = label[k] + 1
        object_map[inner] = k + 1
    pixels = rng.integers(0, 256, (height, width, 3), dtype=numpy.uint8)
    return Example(id_, jpeg(pixels), (int(height), int(width)), bbox, label, difficult,
                   class_map, object_map)


def visible_instances(example: Example) -> list[int]:
    """The instance ids (1-based) that still own pixels in the object map."""
    return [k for k in range(1, len(example.label) + 1) if (example.object_map == k).any()]


def make_tar(year: str, splits: dict[str, list[Example]], segmentation: bool) -> bytes:
    base = f'VOCdevkit/VOC{year}'
    entries: dict[str, bytes] = {}
    examples = {e.id: e for split in splits.values() for e in split}
    for example in examples.values():
        entries[f'{base}/Annotations/{example.id}.xml'] = annotation_xml(example, f'VOC{year}')
        entries[f'{base}/JPEGImages/{example.id}.jpg'] = example.jpeg
        if segmentation:
            entries[f'{base}/SegmentationClass/{example.id}.png'] = palette_png(
                example.class_map)
            entries[f'{base}/SegmentationObject/{example.id}.png'] = palette_png(
                example.object_map)
    for split, split_examples in splits.items():
        ids = ''.join(f'{e.id}\n' for e in split_examples).encode()
        entries[f'{base}/ImageSets/Main/{split}.txt'] = ids
        for name in voc_bbox_label_names[:2]:
            entries[f'{base}/ImageSets/Main/{name}_{split}.txt'] = b''.join(
                f'{e.id} {1 if voc_bbox_label_names.index(name) in e.label else -1}\n'.encode()
                for e in split_examples)
        if segmentation:
            entries[f'{base}/ImageSets/Segmentation/{split}.txt'] = ids
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode='w') as archive:
        for name, data in sorted(entries.items()):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def build(seed: int, year: str, test: bool) -> VOCArchive:
    rng = numpy.random.default_rng(seed)
    if test:
        ids = [f'{k:06d}' for k in range(100, 100 + _N_TEST)]
        splits = {'test': [make_example(rng, i) for i in ids]}
    else:
        if year == '2007':
            ids = [f'{k:06d}' for k in range(1, 1 + _N_TRAIN + _N_VAL)]
        else:
            ids = [f'2008_{k:06d}' for k in range(1, 1 + _N_TRAIN + _N_VAL)]
        examples = [make_example(rng, i) for i in ids]
        splits = {'train': examples[:_N_TRAIN], 'val': examples[_N_TRAIN:],
                  'trainval': examples}
    return VOCArchive(make_tar(year, splits, segmentation=not test), splits)


@pytest.fixture
def voc(file_server, vision_home, monkeypatch) -> dict[str, VOCArchive]:
    """Serves the three VOC tars and points voc_utils at them (with their sha256); returns
    the archives by key of ``voc_utils.resources``."""
    archives = {'2007': build(0, '2007', False), '2007_test': build(1, '2007', True),
                '2012': build(2, '2012', False)}
    for key, archive in archives.items():
        name = voc_utils.resources[key][0].rsplit('/', 1)[1]
        url = file_server.serve(f'/pascal/VOC/{name}', archive.data)
        checksum = ('sha256', hashlib.sha256(archive.data).hexdigest())
        monkeypatch.setitem(voc_utils.resources, key, (url, checksum))
    return archives

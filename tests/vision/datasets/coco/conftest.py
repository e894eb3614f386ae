"""Small MS COCO archives in the layout of the official zips, served locally.

``train2017.zip`` and ``val2017.zip`` hold ``{split}2017/*.jpg``; ``annotations_trainval2017.zip``
holds ``annotations/instances_{split}2017.json``; ``panoptic_annotations_trainval2017.zip``
holds ``annotations/panoptic_{split}2017.json`` and ``annotations/panoptic_{split}2017.zip``
(itself holding ``panoptic_{split}2017/*.png``); for 2014, ``val2014.zip`` and Detectron's
``instances_minival2014.json.zip`` (the JSON at its top level).
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from dataclasses import dataclass

import numpy
import pytest
from PIL import Image

from vision.datasets.coco import coco_utils

# Category ids as in the official files (not contiguous): person, bicycle, car, stop sign,
# toothbrush.
CATEGORY_IDS = [1, 2, 3, 13, 90]


def encode_counts(counts: list[int]) -> str:
    """pycocotools' rleToString: counts after the second as differences from the count two
    places before, 5 bits a character, offset 48, bit 32 for 'more follows'."""
    out = []
    for k, x in enumerate(counts):
        if k > 2:
            x -= counts[k - 2]
        more = True
        while more:
            c = x & 0x1F
            x >>= 5
            more = x != -1 if c & 0x10 else x != 0
            out.append(chr(c + (0x20 if more else 0) + 48))
    return ''.join(out)


def run_lengths(mask: numpy.ndarray) -> list[int]:
    """The uncompressed RLE counts of a mask (column-major, starting with zeros)."""
    flat = mask.T.ravel().astype(numpy.int8)
    edges = numpy.flatnonzero(numpy.diff(numpy.concatenate(([0], flat, [1 - flat[-1]]))))
    return numpy.diff(numpy.concatenate(([0], edges))).tolist()


def jpeg(array: numpy.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format='jpeg')
    return buffer.getvalue()


def png(array: numpy.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, format='png')
    return buffer.getvalue()


def decode(data: bytes) -> numpy.ndarray:
    with Image.open(io.BytesIO(data)) as image:
        return numpy.asarray(image.convert('RGB'), numpy.float32).transpose(2, 0, 1)


def zip_bytes(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w') as archive:
        for name, data in entries.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@dataclass
class Image_:
    """One image and what its annotations must decode to (all annotations, in file order)."""

    id: int
    file_name: str
    jpeg: bytes
    bbox: numpy.ndarray  # (N, 4) y_min, x_min, y_max, x_max
    label: numpy.ndarray
    area: numpy.ndarray
    crowded: numpy.ndarray
    mask: numpy.ndarray  # (N, H, W)
    valid: numpy.ndarray  # boxes with an area

    @property
    def img(self) -> numpy.ndarray:
        return decode(self.jpeg)


def make_image(rng: numpy.random.Generator, image_id: int, annotations: list,
               next_id: list) -> Image_:
    """An image with a polygon rectangle, a compressed-RLE object, a crowd (uncompressed RLE)
    and a box without area; appends its annotations (JSON records) to ``annotations``."""
    height, width = (int(v) for v in rng.integers(20, 40, 2))
    records, bbox, mask = [], [], []

    y0, x0 = (int(v) for v in rng.integers(0, 10, 2))
    y1, x1 = y0 + int(rng.integers(3, 9)), x0 + int(rng.integers(3, 9))
    rect = numpy.zeros((height, width), bool)
    rect[y0:y1 + 1, x0:x1 + 1] = True  # Pillow fills the outline too
    records.append({'segmentation': [[x0, y0, x1, y0, x1, y1, x0, y1]], 'iscrowd': 0,
                    'bbox': [x0, y0, x1 - x0, y1 - y0]})
    bbox.append([y0, x0, y1, x1])
    mask.append(rect)

    for crowd in (0, 1):
        blob = rng.random((height, width)) < 0.3
        blob[:, :2] = False
        ys, xs = numpy.nonzero(blob)
        counts = run_lengths(blob)
        segmentation = {'size': [height, width],
                        'counts': counts if crowd else encode_counts(counts)}
        box = [float(xs.min()), float(ys.min()), float(xs.max() + 1 - xs.min()),
               float(ys.max() + 1 - ys.min())]
        records.append({'segmentation': segmentation, 'iscrowd': crowd, 'bbox': box})
        bbox.append([box[1], box[0], box[1] + box[3], box[0] + box[2]])
        mask.append(blob)

    records.append({'segmentation': [[2, 2, 2, 5, 2.0, 9]], 'iscrowd': 0,
                    'bbox': [2, 2, 0, 7]})
    bbox.append([2, 2, 9, 2])
    flat = numpy.zeros((height, width), bool)
    flat[2:10, 2] = True
    mask.append(flat)

    label = rng.integers(0, len(CATEGORY_IDS), len(records))
    area = rng.uniform(1, 100, len(records)).round(2)
    for record, lbl, a in zip(records, label, area):
        record.update(id=next_id[0], image_id=image_id, category_id=CATEGORY_IDS[lbl],
                      area=float(a))
        next_id[0] += 1
        annotations.append(record)
    pixels = rng.integers(0, 256, (height, width, 3), dtype=numpy.uint8)
    return Image_(image_id, f'{image_id:012d}.jpg', jpeg(pixels),
                  numpy.array(bbox, numpy.float32), label.astype(numpy.int32),
                  area.astype(numpy.float32), numpy.array([r['iscrowd'] for r in records],
                                                          bool),
                  numpy.array(mask), numpy.array([True, True, True, False]))


def instances_json(images: list[Image_], annotations: list) -> bytes:
    categories = [{'supercategory': 'thing', 'id': i, 'name': f'category {i}'}
                  for i in CATEGORY_IDS]
    return json.dumps({
        'info': {'description': 'test'}, 'licenses': [],
        'images': [{'id': im.id, 'file_name': im.file_name, 'height': im.mask.shape[1],
                    'width': im.mask.shape[2], 'license': 1} for im in images],
        'annotations': annotations, 'categories': categories}).encode()


def make_split(rng, first_id: int, n: int) -> tuple[list[Image_], bytes]:
    annotations, next_id = [], [first_id * 100]
    # Listed out of id order: the dataset sorts by id.
    images = [make_image(rng, first_id + k, annotations, next_id) for k in (2, 0, 1)[:n]]
    return sorted(images, key=lambda im: im.id), instances_json(images, annotations)


@dataclass
class Panoptic:
    """A panoptic example: the image and its expected semantic label map."""

    jpeg: bytes
    label: numpy.ndarray

    @property
    def img(self) -> numpy.ndarray:
        return decode(self.jpeg)


def make_panoptic(rng, split: str, first_id: int) -> tuple[list[Panoptic], dict, dict]:
    """Images with segment-id PNGs; returns the examples, the image zip entries and the
    panoptic annotation zip entries."""
    categories = [{'id': i, 'name': f'c{i}', 'isthing': int(i < 91)}
                  for i in (1, 3, 92, 118, 200)]
    examples, images, annotations, image_entries, png_entries = [], [], [], {}, {}
    for k in range(2):
        image_id = first_id + k
        height, width = (int(v) for v in rng.integers(10, 20, 2))
        ids = rng.choice(2 ** 24 - 1, 3, replace=False) + 1
        cats = rng.integers(0, len(categories), 3)
        id_map = rng.choice(numpy.concatenate(([0], ids)), (height, width))
        label = numpy.full((height, width), -1, numpy.int32)
        for segment_id, cat in zip(ids, cats):
            label[id_map == segment_id] = cat
        rgb = numpy.stack([id_map % 256, id_map // 256 % 256, id_map // 65536], -1)
        name = f'{image_id:012d}'
        pixels = rng.integers(0, 256, (height, width, 3), dtype=numpy.uint8)
        image_entries[f'{split}2017/{name}.jpg'] = jpeg(pixels)
        png_entries[f'panoptic_{split}2017/{name}.png'] = png(rgb.astype(numpy.uint8))
        images.append({'id': image_id, 'file_name': f'{name}.jpg', 'height': height,
                       'width': width})
        annotations.append({'image_id': image_id, 'file_name': f'{name}.png',
                            'segments_info': [
                                {'id': int(i), 'category_id': categories[c]['id'],
                                 'iscrowd': 0, 'area': 1, 'bbox': [0, 0, 1, 1]}
                                for i, c in zip(ids, cats)]})
        examples.append(Panoptic(image_entries[f'{split}2017/{name}.jpg'], label))
    anno_entries = {
        f'annotations/panoptic_{split}2017.json': json.dumps(
            {'images': images, 'annotations': annotations, 'categories': categories}).encode(),
        f'annotations/panoptic_{split}2017.zip': zip_bytes(png_entries)}
    return examples, image_entries, anno_entries


@pytest.fixture
def coco(file_server, vision_home, monkeypatch) -> dict:
    """Serves the COCO archives and points coco_utils at them (with their sha256; the
    minival list has no checksum, as in coco_utils). Returns the expected images by
    ``(year, split)`` and the panoptic examples by split."""
    rng = numpy.random.default_rng(0)
    expected, json_files, image_zips = {}, {}, {}
    for year, split, first_id, n in (('2017', 'train', 1, 3), ('2017', 'val', 10, 2),
                                     ('2014', 'minival', 20, 2)):
        expected[(year, split)], json_files[(year, split)] = make_split(rng, first_id, n)
        img_split = 'train' if split == 'train' else 'val'
        entries = image_zips.setdefault((year, img_split), {})
        for im in expected[(year, split)]:
            entries[f'{img_split}{year}/{im.file_name}'] = im.jpeg
    panoptic = {}
    panoptic_entries = {}
    for split, first_id in (('train', 30), ('val', 40)):
        panoptic[split], image_entries, anno_entries = make_panoptic(rng, split, first_id)
        image_zips[('2017', split)].update(image_entries)
        panoptic_entries.update(anno_entries)

    def serve(name: str, data: bytes, checksum: bool = True):
        url = file_server.serve(f'/coco/{name}', data)
        return url, ('sha256', hashlib.sha256(data).hexdigest()) if checksum else None

    for key, entries in image_zips.items():
        monkeypatch.setitem(coco_utils.img_resources, key,
                            serve(f'{key[1]}{key[0]}.zip', zip_bytes(entries)))
    trainval = serve('annotations_trainval2017.zip', zip_bytes({
        f'annotations/instances_{s}2017.json': json_files[('2017', s)]
        for s in ('train', 'val')}))
    for split in ('train', 'val'):
        monkeypatch.setitem(coco_utils.instances_anno_resources, ('2017', split), trainval)
    monkeypatch.setitem(coco_utils.instances_anno_resources, ('2014', 'minival'), serve(
        'instances_minival2014.json.zip',
        zip_bytes({'instances_minival2014.json': json_files[('2014', 'minival')]}), False))
    monkeypatch.setattr(coco_utils, 'panoptic_anno_resource',
                        serve('panoptic_annotations_trainval2017.zip',
                              zip_bytes(panoptic_entries)))
    return {'instances': expected, 'panoptic': panoptic}

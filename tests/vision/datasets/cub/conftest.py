"""A small CUB-200-2011 in the official layout, served as CUB_200_2011.tgz and
segmentations.tgz."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy
import pytest

from vision.datasets.cub import cub_utils

ARCHIVE = '/records/65de6-vp158/files/CUB_200_2011.tgz'
SEGMENTATIONS = '/records/w9d68-gec53/files/segmentations.tgz'


@dataclass
class Cub:
    """What the served archives hold, in the order of images.txt."""

    paths: list[str] = field(default_factory=list)
    images: list[numpy.ndarray] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)
    boxes: list[tuple[float, float, float, float]] = field(default_factory=list)
    points: list[numpy.ndarray] = field(default_factory=list)
    flags: list[numpy.ndarray] = field(default_factory=list)
    visible: list[numpy.ndarray] = field(default_factory=list)
    prob_maps: list[numpy.ndarray] = field(default_factory=list)
    tables: dict[str, str] = field(default_factory=dict)
    archive: str = ARCHIVE
    segmentations: str = SEGMENTATIONS


def build_cub(image_bytes, rng) -> tuple[Cub, dict[str, bytes], dict[str, bytes]]:
    """Four images of three classes; the tables list their rows in different orders."""
    cub = Cub()
    classes = [(1, 'Black_footed_Albatross'), (2, 'Laysan_Albatross'), (200, 'Common_Yellowthroat')]
    entries, segmentations = {}, {}
    for image_id, (class_id, name) in enumerate([classes[0], classes[1], classes[2], classes[0]],
                                                start=1):
        folder = f'{class_id:03d}.{name}'
        path = f'{folder}/{name}_{image_id:04d}_{1000 + image_id}.jpg'
        height, width = 20 + image_id, 30
        img = rng.integers(0, 256, size=(height, width, 3), dtype=numpy.uint8)
        prob = rng.integers(0, 256, size=(height, width), dtype=numpy.uint8)
        entries[f'CUB_200_2011/images/{path}'] = image_bytes(img, 'jpeg')
        segmentations[f'segmentations/{path[:-4]}.png'] = image_bytes(prob)
        # x, y within the image except: part 3 beyond the right edge, part 4 at negative y.
        xy = rng.uniform(0, [width, height], size=(15, 2)).round(1)
        xy[2, 0] = width + 5
        xy[3, 1] = -2
        flags = rng.integers(0, 2, size=15).astype(bool)
        flags[2:4] = True
        cub.paths.append(path)
        cub.images.append(img)
        cub.labels.append(class_id - 1)
        cub.boxes.append((2.0, 3.0, 10.0 + image_id, 12.5))  # x, y, width, height
        cub.points.append(xy[:, ::-1].astype(numpy.float32))
        cub.flags.append(flags)
        cub.visible.append(flags & ~numpy.isin(numpy.arange(15), (2, 3)))
        cub.prob_maps.append(prob)
    n = len(cub.paths)
    cub.tables = {
        'images.txt': ''.join(f'{i} {p}\n' for i, p in enumerate(cub.paths, 1)),
        'bounding_boxes.txt': ''.join(
            f'{i} {x} {y} {w} {h}\n' for i, (x, y, w, h) in reversed(list(enumerate(cub.boxes,
                                                                                   1)))),
        'image_class_labels.txt': ''.join(
            f'{i} {cub.labels[i - 1] + 1}\n' for i in (2, 1, 4, 3)),
        'parts/part_locs.txt': ''.join(
            f'{i} {k + 1} {cub.points[i - 1][k, 1]} {cub.points[i - 1][k, 0]} '
            f'{int(cub.flags[i - 1][k])}\n'
            for k in reversed(range(15)) for i in range(1, n + 1)),
        'parts/parts.txt': ''.join(f'{k} part{k}\n' for k in range(1, 16)),
        'classes.txt': ''.join(f'{c} {c:03d}.{name}\n' for c, name in classes),
        'train_test_split.txt': ''.join(f'{i} {i % 2}\n' for i in range(1, n + 1)),
    }
    for name, text in cub.tables.items():
        entries[f'CUB_200_2011/{name}'] = text.encode()
    entries['CUB_200_2011/README'] = b'CUB-200-2011\n'
    entries['attributes.txt'] = b'1 has_bill_shape::curved\n'
    return cub, entries, segmentations


@pytest.fixture
def cub(file_server, vision_home, make_archive, image_bytes, monkeypatch) -> Cub:
    data, entries, segmentations = build_cub(image_bytes, numpy.random.default_rng(0))
    archive = make_archive('tar.gz', entries)
    monkeypatch.setattr(cub_utils, 'url', file_server.serve(ARCHIVE, archive))
    monkeypatch.setattr(cub_utils, '_MD5', hashlib.md5(archive).hexdigest())
    monkeypatch.setattr(cub_utils, 'prob_map_url', file_server.serve(
        SEGMENTATIONS, make_archive('tar.gz', segmentations)))
    return data

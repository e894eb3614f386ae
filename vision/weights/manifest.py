"""The manifest of pretrained weights: its rows (:class:`WeightSpec`), read and checked.

The default manifest is the package's ``weights_manifest.json`` (which the repository's root
links to); ``$VISION_WEIGHTS_MANIFEST`` names another file. Its rows are described in
:mod:`vision.weights`.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vision.datasets import (
    ade20k_semantic_segmentation_label_names,
    camvid_label_names,
    cityscapes_semantic_segmentation_label_names,
    coco_bbox_label_names,
    imagenet_label_names,
    shapes_label_names,
    shapes_semantic_segmentation_label_names,
    voc_bbox_label_names,
    voc_semantic_segmentation_label_names,
)
from vision.models._registry import get_model
from vision.weights.convert import get_converter, local_npz_path
from vision.weights.fetch import describe_source
from vision.weights.preprocessing import Preprocessing
from vision.weights.pypi import check_member, parse_requirement

_WHO = 'vision.weights'
_HEX = set('0123456789abcdef')
_REQUIRED = ('model', 'name', 'model_kwargs', 'source', 'converter', 'n_class', 'categories',
             'preprocessing', 'licence', 'scores')
_SCORE_FIELDS = ('metric', 'value', 'unit', 'setting', 'dataset', 'protocol', 'reference')
_LABEL_NAMES = {
    'imagenet': imagenet_label_names,
    'imagenet_with_background': ('background',) + imagenet_label_names,
    'shapes': tuple(shapes_label_names),
    'shapes_with_background': tuple(shapes_semantic_segmentation_label_names),
    'face': ('face',),
    'voc': tuple(voc_bbox_label_names),
    'voc_with_background': tuple(voc_semantic_segmentation_label_names),
    'coco': tuple(coco_bbox_label_names),
    'camvid': tuple(camvid_label_names),
    'cityscapes': tuple(cityscapes_semantic_segmentation_label_names),
    'ade20k': tuple(ade20k_semantic_segmentation_label_names),
}
_CACHE: dict[tuple[str, int], tuple[WeightSpec, ...]] = {}


def label_names(categories: str) -> tuple[str, ...]:
    """The category names of a manifest's ``categories`` key.

    Args:
        categories (str): ``'imagenet'`` (:data:`vision.datasets.imagenet_label_names`),
            ``'imagenet_with_background'``, ``'shapes'``
            (:data:`vision.datasets.shapes_label_names`), ``'shapes_with_background'``
            (:data:`vision.datasets.shapes_semantic_segmentation_label_names`:
            ``'background'``, then the four shapes), ``'face'``, ``'voc'``
            (:data:`vision.datasets.voc_bbox_label_names`, the 20 classes of PASCAL VOC),
            ``'coco'`` (:data:`vision.datasets.coco_bbox_label_names`, the 80 categories of
            COCO's detection annotations, in the order of their ids), ``'voc_with_background'``
            (:data:`vision.datasets.voc_semantic_segmentation_label_names`: ``'background'``,
            then the 20 classes of PASCAL VOC, as its segmentation masks number them),
            ``'camvid'``
            (:data:`vision.datasets.camvid_label_names`, the 11 classes of CamVid as SegNet's
            tutorial labels them), ``'cityscapes'``
            (:data:`vision.datasets.cityscapes_semantic_segmentation_label_names`, the 19
            classes of Cityscapes' benchmark) or ``'ade20k'``
            (:data:`vision.datasets.ade20k_semantic_segmentation_label_names`, the 150 classes
            of the ADE20K scene parsing benchmark).

    Returns:
        tuple of str: the names, in the order of the class indices.

    Raises:
        ValueError: the categories are unknown.
    """
    try:
        return _LABEL_NAMES[categories]
    except KeyError:
        raise ValueError(f'{_WHO}: unknown categories {categories!r}; the known ones are '
                         f'{sorted(_LABEL_NAMES)}') from None


@dataclasses.dataclass(frozen=True)
class WeightSpec:
    """One row of the manifest (see :mod:`vision.weights`)."""

    model: str
    name: str
    model_kwargs: Mapping[str, Any]
    source: Mapping[str, Any]
    sha256: str | None
    sha256_prefix: str | None
    converter: str
    n_class: int | None
    categories: str | None
    preprocessing: Preprocessing
    licence: str
    scores: tuple[Mapping[str, Any], ...]

    @property
    def label_names(self) -> tuple[str, ...] | None:
        """The names of the classes; None for the weights of an extractor."""
        return None if self.categories is None else label_names(self.categories)

    def describe(self) -> str:
        """``resnet50/imagenet (arch='he')``."""
        kwargs = ', '.join(f'{k}={v!r}' for k, v in self.model_kwargs.items())
        return f'{self.model}/{self.name}' + (f' ({kwargs})' if kwargs else '')

    def local_path(self, progress: bool | None = None) -> str:
        """The path of an NPZ file in this project's layout holding the weight (see
        :func:`vision.weights.convert.local_npz_path`)."""
        return local_npz_path(self, progress)


def manifest_path() -> str:
    """``$VISION_WEIGHTS_MANIFEST``, or the package's ``weights_manifest.json`` (which the
    repository's root links to, and which an installed package carries)."""
    return os.environ.get('VISION_WEIGHTS_MANIFEST') or str(
        Path(__file__).resolve().parents[1] / 'weights_manifest.json')


def load_manifest(path: str | os.PathLike | None = None) -> tuple[WeightSpec, ...]:
    """Reads and checks a manifest.

    Args:
        path (str, path or None): the manifest; None for the default one.

    Returns:
        tuple of WeightSpec: its rows, in order.

    Raises:
        ValueError: a row is malformed, names an unknown model, converter or categories, or
            repeats another's model, name and model_kwargs; the message names the row.
    """
    path = os.fspath(path) if path is not None else manifest_path()
    key = (path, os.stat(path).st_mtime_ns)
    if key not in _CACHE:
        with open(path, encoding='utf-8') as f:
            data = json.load(f)
        if not isinstance(data, dict) or data.get('format_version') != 1:
            raise ValueError(f'{_WHO}: {path} is not a manifest of format_version 1')
        specs = tuple(_parse_row(path, i, row) for i, row in enumerate(data.get('weights', [])))
        seen = {}
        for i, spec in enumerate(specs):
            ident = (spec.model, spec.name, json.dumps(spec.model_kwargs, sort_keys=True))
            if ident in seen:
                raise ValueError(f'{_WHO}: {path}: rows {seen[ident]} and {i} are both '
                                 f'{spec.describe()}')
            seen[ident] = i
        _CACHE[key] = specs
    return _CACHE[key]


def _parse_row(path: str, index: int, row: Any) -> WeightSpec:
    def fail(problem: str) -> ValueError:
        return ValueError(f'{_WHO}: {path}: row {index} ({row.get("model")}/{row.get("name")}): '
                          f'{problem}')

    if not isinstance(row, dict):
        raise ValueError(f'{_WHO}: {path}: row {index} must be an object, but got {row!r}')
    missing = [k for k in _REQUIRED if k not in row]
    if missing:
        raise fail(f'missing fields {missing}')
    sha256, prefix = row.get('sha256'), row.get('sha256_prefix')
    if (row['n_class'] is None) != (row['categories'] is None):
        raise fail('n_class and categories must both be null (the weights of an extractor, '
                   'without a classifier) or neither')
    try:
        get_model(row['model'])
        get_converter(row['converter'])
        names = None if row['categories'] is None else label_names(row['categories'])
        preprocessing = Preprocessing(**{k: tuple(v) if isinstance(v, list) else v
                                         for k, v in row['preprocessing'].items()})
        _check_source(row['source'], sha256, prefix)
    except (ValueError, TypeError) as e:
        raise fail(str(e)) from None
    if names is not None and row['n_class'] != len(names):
        raise fail(f'n_class is {row["n_class"]}, but {row["categories"]!r} has {len(names)} '
                   'categories')
    if sha256 is not None and not _is_hex(sha256, 64, 64):
        raise fail(f'sha256 must be 64 lowercase hexadecimal digits, but got {sha256!r}')
    if prefix is not None and not _is_hex(prefix, 8, 63):
        raise fail(f'sha256_prefix must be 8 to 63 lowercase hexadecimal digits, but got '
                   f'{prefix!r}')
    if not isinstance(row['model_kwargs'], dict) or not isinstance(row['scores'], list):
        raise fail('model_kwargs must be an object and scores a list')
    for score in row['scores']:
        missing = [k for k in _SCORE_FIELDS if k not in score]
        if missing:
            raise fail(f'a score lacks the fields {missing}')
    return WeightSpec(row['model'], row['name'], dict(row['model_kwargs']), dict(row['source']),
                      sha256, prefix, row['converter'], row['n_class'], row['categories'],
                      preprocessing, row['licence'], tuple(row['scores']))


def _check_source(source: Any, sha256: str | None, prefix: str | None) -> None:
    """Checks the ``source`` of a row (see :mod:`vision.weights.fetch`).

    Raises:
        ValueError: the source is of no known form, or a package's files lack their sha256.
    """
    forms = ('{"url": ...}, {"pypi": "package==version", "files": {path: sha256, ...}} or '
             '{"file": ...}')
    if not isinstance(source, dict) or not source:
        raise ValueError(f'source must be {forms}, but got {source!r}')
    if 'pypi' in source:
        files = source.get('files')
        if set(source) != {'pypi', 'files'} or not isinstance(files, dict) or not files:
            raise ValueError(f'source must be {forms}, but got {source!r}')
        parse_requirement(source['pypi'])
        for member, digest in files.items():
            check_member(member)
            if not _is_hex(digest, 64, 64):
                raise ValueError(f'the sha256 of {member} must be 64 lowercase hexadecimal '
                                 f'digits, but got {digest!r}')
        if sha256 is not None or prefix is not None:
            raise ValueError(f'the files of {describe_source(source)} carry their own sha256, '
                             'so the row\'s sha256 and sha256_prefix must be null')
        return
    if len(source) != 1 or set(source) - {'url', 'file'} or not isinstance(
            next(iter(source.values())), str):
        raise ValueError(f'source must be {forms}, but got {source!r}')


def _is_hex(text: Any, shortest: int, longest: int) -> bool:
    return isinstance(text, str) and shortest <= len(text) <= longest and set(text) <= _HEX

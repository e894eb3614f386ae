"""How a weight's file becomes this project's parameters: the converters, and the conversion
made once and kept in ``$VISION_HOME/converted``."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy

from framework.serializers import load_torch_state_dict
from vision.utils.download import FileLock, get_vision_home
from vision.weights.fetch import fetch_source
from vision.weights.integrity import reporting_corruption
from vision.weights.preprocessing import Preprocessing

if TYPE_CHECKING:
    from vision.weights.manifest import WeightSpec

_WHO = 'vision.weights'


@dataclasses.dataclass(frozen=True)
class Converter:
    """How a file becomes this project's parameters.

    Attributes:
        name (str): the name the manifest uses.
        reads (str): ``'npz'`` (Chainer's layout, loaded as is) or ``'torch'`` (a state dict).
        convert (callable or None): ``convert(state, preprocessing) -> dict`` maps the state
            dict of a checkpoint (name -> array) to NPZ keys of this project (``'conv1/conv/W'``);
            None for files used as they are: NPZ files, and the PyTorch checkpoints of
            ``'pytorch_checkpoint'``, which the model reads itself (see
            :func:`vision.weights.fetch_weight_files`).
        model_kwargs (dict): constructor arguments that weights of this kind need (e.g.
            torchvision's batch-normalization epsilon), applied unless the caller gives them.
        version (int): bumped when the conversion changes, so that cached results are redone.
    """

    name: str
    reads: str
    convert: Callable[[dict, Preprocessing], dict] | None = None
    model_kwargs: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    version: int = 1


_CONVERTERS: dict[str, Converter] = {
    'npz': Converter('npz', 'npz'),
    'chainercv_npz': Converter('chainercv_npz', 'npz'),
    'pytorch_checkpoint': Converter('pytorch_checkpoint', 'torch'),
}


def register_converter(name: str, model_kwargs: Mapping[str, Any] | None = None,
                       version: int = 1) -> Callable:
    """A decorator registering ``convert(state, preprocessing) -> dict`` as the converter of
    PyTorch checkpoints called ``name``.

    Args:
        name (str): the name rows of the manifest give in their ``converter`` field.
        model_kwargs (dict or None): constructor arguments the weights need.
        version (int): the version of the conversion (see :class:`Converter`).

    Returns:
        callable: the decorator, which returns ``convert`` unchanged.

    Raises:
        ValueError: the name is taken.
    """
    def decorator(convert):
        if name in _CONVERTERS:
            raise ValueError(f'register_converter: the converter {name!r} already exists')
        _CONVERTERS[name] = Converter(name, 'torch', convert, dict(model_kwargs or {}), version)
        return convert
    return decorator


def get_converter(name: str) -> Converter:
    """The converter called ``name``.

    Raises:
        ValueError: no converter has that name.
    """
    try:
        return _CONVERTERS[name]
    except KeyError:
        raise ValueError(f'{_WHO}: no converter is named {name!r}; the converters are '
                         f'{sorted(_CONVERTERS)}') from None


def convert_checkpoint(path: str, converter: Converter,
                       preprocessing: Preprocessing) -> dict[str, numpy.ndarray]:
    """Reads a PyTorch checkpoint and converts its state dict with ``converter``."""
    return converter.convert(load_torch_state_dict(path), preprocessing)


def local_npz_path(spec: WeightSpec, progress: bool | None = None) -> str:
    """The path of an NPZ file in this project's layout holding a weight of the manifest.

    Args:
        spec (WeightSpec): the manifest row.
        progress (bool or None): as in :func:`vision.utils.cached_download`.

    Returns:
        str: the fetched file itself for NPZ sources, else its conversion, made once and kept
        in ``$VISION_HOME/converted``.

    Raises:
        ValueError: the weight's converter leaves its files to the model
            (``'pytorch_checkpoint'``).
        CorruptWeightError: the cached checkpoint is damaged.
    """
    converter = get_converter(spec.converter)
    if converter.reads == 'npz':
        return fetch_source(spec, 'npz', progress)
    if converter.convert is None:
        raise ValueError(f'{_WHO}: {spec.describe()} has the converter {converter.name!r}, '
                         'whose checkpoints the model reads itself: get their paths with '
                         f'vision.weights.fetch_weight_files({spec.model!r}, {spec.name!r})')
    path = Path(converted_path(spec))
    path.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(path) + '.lock'):
        if not path.exists():
            source = fetch_source(spec, 'torch', progress)
            with reporting_corruption(spec, source, 'torch'):
                arrays = convert_checkpoint(source, converter, spec.preprocessing)
            _save_npz_atomically(path, arrays)
    return str(path)


def converted_path(spec: WeightSpec) -> str:
    """Where the conversion of a weight's PyTorch checkpoint is kept:
    ``$VISION_HOME/converted/<model>/<name>-<digest>.npz``, the digest telling apart the
    sources, the preprocessing and the versions of the converter. The file may not exist;
    weights whose converter converts nothing have none.
    """
    converter = get_converter(spec.converter)
    key = json.dumps([converter.name, converter.version, spec.source, spec.sha256,
                      spec.sha256_prefix, dataclasses.asdict(spec.preprocessing)],
                     sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:16]
    return str(Path(get_vision_home()) / 'converted' / spec.model / f'{spec.name}-{digest}.npz')


def _save_npz_atomically(path: Path, arrays: Mapping[str, numpy.ndarray]) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix='.part')
    try:
        with os.fdopen(fd, 'wb') as f:
            numpy.savez(f, **arrays)
        os.replace(tmp, path)
    except BaseException:
        os.remove(tmp)
        raise

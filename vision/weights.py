"""Pretrained weights by name: the manifest, the lookup, the download, the conversion, the loading.

Every pretrained weight is a row of ``weights_manifest.json`` (in this package, linked from the
root of the repository;
``$VISION_WEIGHTS_MANIFEST`` names another file):

- ``model``, ``name``: the registered model (:func:`vision.models.get_model`) and the weight's
  name (``'imagenet'``); ``model_kwargs``: the constructor arguments the weight needs (e.g.
  ``{"arch": "he"}``), which also tell apart weights of one name;
- ``source``: where the file comes from (see :mod:`vision._weights_fetch`), ``sha256`` or the
  publisher's ``sha256_prefix`` (both null when the publisher gives no hash: the file is then
  used with a warning that shows its sha256);
- ``converter``: how the file becomes this project's parameters (:class:`Converter`);
- ``n_class``, ``categories`` (``'imagenet'``, ``'imagenet_with_background'``, ``'shapes'``)
  and the ``preprocessing`` the weight expects (:class:`Preprocessing`);
- ``licence`` and the published ``scores``, each with its protocol and reference.

A model constructor resolves its ``pretrained_model`` argument with
:func:`prepare_pretrained_model`: a weight's name (fetched, verified, converted once into
``$VISION_HOME/converted``), or the path of a local file, recognised by its content (an NPZ in
Chainer's layout, possibly under a prefix such as ``predictor/``, or a PyTorch checkpoint).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
import warnings
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy

from vision._weights_fetch import describe_source, fetch_source
from vision.utils.download import FileLock, file_sha256, get_vision_home

_WHO = 'vision.weights'
_HEX = set('0123456789abcdef')


@dataclasses.dataclass(frozen=True)
class Preprocessing:
    """What a weight expects of its input images.

    Attributes:
        mean (tuple of float): the channel means subtracted, in units of ``value_range``.
        std (tuple of float or None): the channel standard deviations divided by after that,
            in units of ``value_range`` (None: no division).
        value_range (float): the publisher's pixel scale: 255 for 0-255 images, 1 for 0-1.
        channel_order (str): ``'RGB'`` (every weight here is stored for RGB input).
        resize (int): the length the shorter side is resized to before cropping.
        crop_size (int): the side of the square crop given to the network.
        crop (str): ``'center'`` or ``'10'`` (ten crops, averaged).
        interpolation (str): the resampling of the resize.
    """

    mean: tuple[float, ...]
    std: tuple[float, ...] | None = None
    value_range: float = 255.0
    channel_order: str = 'RGB'
    resize: int = 256
    crop_size: int = 224
    crop: str = 'center'
    interpolation: str = 'bilinear'

    def model_mean(self) -> numpy.ndarray:
        """The mean a model of this project subtracts from 0-255 images: ``(3, 1, 1)``
        float32."""
        mean = numpy.asarray(self.mean, numpy.float64) * (255.0 / self.value_range)
        return mean.astype(numpy.float32)[:, None, None]

    def input_scale(self) -> numpy.ndarray | None:
        """``1 / std`` for 0-255 images, ``(3,)`` float64; the converters fold it into the
        first convolution, so that the model takes ``img - mean`` as every model here does.
        None when there is no division."""
        if self.std is None:
            return None
        return 1.0 / (numpy.asarray(self.std, numpy.float64) * (255.0 / self.value_range))


IMAGENET_TORCHVISION = Preprocessing(mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225),
                                     value_range=1.0)
"""torchvision's ImageNet preprocessing, assumed for checkpoints given by path."""


@dataclasses.dataclass(frozen=True)
class Converter:
    """How a file becomes this project's parameters.

    Attributes:
        name (str): the name the manifest uses.
        reads (str): ``'npz'`` (Chainer's layout, loaded as is) or ``'torch'`` (a state dict).
        convert (callable or None): ``convert(state, preprocessing) -> dict`` maps the state
            dict of a checkpoint (name -> array) to NPZ keys of this project (``'conv1/conv/W'``);
            None for NPZ files.
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
}


def register_converter(name: str, model_kwargs: Mapping[str, Any] | None = None,
                       version: int = 1) -> Callable:
    """A decorator registering ``convert(state, preprocessing) -> dict`` as the converter of
    PyTorch checkpoints called ``name``.

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
    _import_models()
    try:
        return _CONVERTERS[name]
    except KeyError:
        raise ValueError(f'{_WHO}: no converter is named {name!r}; the converters are '
                         f'{sorted(_CONVERTERS)}') from None


def label_names(categories: str) -> tuple[str, ...]:
    """The category names of a manifest's ``categories`` key: ``'imagenet'``,
    ``'imagenet_with_background'`` or ``'shapes'`` (:data:`vision.datasets.shapes_label_names`).
    """
    from vision.datasets import imagenet_label_names, shapes_label_names
    names = {'imagenet': imagenet_label_names,
             'imagenet_with_background': ('background',) + imagenet_label_names,
             'shapes': tuple(shapes_label_names)}
    try:
        return names[categories]
    except KeyError:
        raise ValueError(f'{_WHO}: unknown categories {categories!r}; the known ones are '
                         f'{sorted(names)}') from None


@dataclasses.dataclass(frozen=True)
class WeightSpec:
    """One row of the manifest (see the module docstring)."""

    model: str
    name: str
    model_kwargs: Mapping[str, Any]
    source: Mapping[str, str]
    sha256: str | None
    sha256_prefix: str | None
    converter: str
    n_class: int
    categories: str
    preprocessing: Preprocessing
    licence: str
    scores: tuple[Mapping[str, Any], ...]

    @property
    def label_names(self) -> tuple[str, ...]:
        return label_names(self.categories)

    def describe(self) -> str:
        """``resnet50/imagenet (arch='he')``."""
        kwargs = ', '.join(f'{k}={v!r}' for k, v in self.model_kwargs.items())
        return f'{self.model}/{self.name}' + (f' ({kwargs})' if kwargs else '')

    def local_path(self, progress: bool | None = None) -> str:
        """The path of an NPZ file in this project's layout holding the weight: the fetched
        file itself for NPZ sources, else its conversion, made once and kept in
        ``$VISION_HOME/converted``."""
        converter = get_converter(self.converter)
        if converter.reads == 'npz':
            path = fetch_source(self.source, self.sha256, self.sha256_prefix, progress)
            if self.sha256 is None and self.sha256_prefix is None:
                warnings.warn(f'{_WHO}: {self.describe()} comes without a published hash, so '
                              f'{path} was not verified; its sha256 is {file_sha256(path)}',
                              stacklevel=2)
            return path
        key = json.dumps([converter.name, converter.version, self.source, self.sha256,
                          self.sha256_prefix, dataclasses.asdict(self.preprocessing)],
                         sort_keys=True)
        digest = hashlib.sha256(key.encode()).hexdigest()[:16]
        path = Path(get_vision_home()) / 'converted' / self.model / f'{self.name}-{digest}.npz'
        path.parent.mkdir(parents=True, exist_ok=True)
        with FileLock(str(path) + '.lock'):
            if not path.exists():
                source = fetch_source(self.source, self.sha256, self.sha256_prefix, progress)
                _save_npz_atomically(path, convert_checkpoint(source, converter,
                                                              self.preprocessing))
        return str(path)


def convert_checkpoint(path: str, converter: Converter,
                       preprocessing: Preprocessing) -> dict[str, numpy.ndarray]:
    """Reads a PyTorch checkpoint and converts its state dict with ``converter``."""
    from framework.serializers import load_torch_state_dict
    return converter.convert(load_torch_state_dict(path), preprocessing)


def _save_npz_atomically(path: Path, arrays: Mapping[str, numpy.ndarray]) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix='.part')
    try:
        with os.fdopen(fd, 'wb') as f:
            numpy.savez(f, **arrays)
        os.replace(tmp, path)
    except BaseException:
        os.remove(tmp)
        raise


# --- the manifest ------------------------------------------------------------------------

_REQUIRED = ('model', 'name', 'model_kwargs', 'source', 'converter', 'n_class', 'categories',
             'preprocessing', 'licence', 'scores')
_SCORE_FIELDS = ('metric', 'value', 'unit', 'setting', 'dataset', 'protocol', 'reference')
_CACHE: dict[tuple[str, int], tuple[WeightSpec, ...]] = {}


def manifest_path() -> str:
    """``$VISION_WEIGHTS_MANIFEST``, or the package's ``weights_manifest.json`` (which the
    repository's root links to, and which an installed package carries)."""
    return os.environ.get('VISION_WEIGHTS_MANIFEST') or str(
        Path(__file__).resolve().parent / 'weights_manifest.json')


def load_manifest(path: str | os.PathLike | None = None) -> tuple[WeightSpec, ...]:
    """Reads and checks a manifest (the default one when ``path`` is None).

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
    from vision.models import get_model
    try:
        get_model(row['model'])
        get_converter(row['converter'])
        names = label_names(row['categories'])
        preprocessing = Preprocessing(**{k: tuple(v) if isinstance(v, list) else v
                                         for k, v in row['preprocessing'].items()})
    except (ValueError, TypeError) as e:
        raise fail(str(e)) from None
    if row['n_class'] != len(names):
        raise fail(f'n_class is {row["n_class"]}, but {row["categories"]!r} has {len(names)} '
                   'categories')
    source = row['source']
    kinds = {'url'} if 'url' in source else {'pypi', 'path'} if 'pypi' in source else {'file'}
    if set(source) != kinds or not all(isinstance(v, str) for v in source.values()):
        raise fail(f'source must be {{"url": ...}}, {{"pypi": ..., "path": ...}} or '
                   f'{{"file": ...}}, but got {source!r}')
    sha256, prefix = row.get('sha256'), row.get('sha256_prefix')
    if sha256 is not None and (len(sha256) != 64 or not set(sha256) <= _HEX):
        raise fail(f'sha256 must be 64 lowercase hexadecimal digits, but got {sha256!r}')
    if prefix is not None and (not 8 <= len(prefix) < 64 or not set(prefix) <= _HEX):
        raise fail(f'sha256_prefix must be 8 to 63 lowercase hexadecimal digits, but got '
                   f'{prefix!r}')
    if not isinstance(row['model_kwargs'], dict) or not isinstance(row['scores'], list):
        raise fail('model_kwargs must be an object and scores a list')
    for score in row['scores']:
        missing = [k for k in _SCORE_FIELDS if k not in score]
        if missing:
            raise fail(f'a score lacks the fields {missing}')
    return WeightSpec(row['model'], row['name'], dict(row['model_kwargs']), dict(source),
                      sha256, prefix, row['converter'], row['n_class'], row['categories'],
                      preprocessing, row['licence'], tuple(row['scores']))


def list_weights(model: str | None = None) -> list[WeightSpec]:
    """The weights of the default manifest, all or those of one model."""
    _import_models()
    return [s for s in load_manifest() if model is None or s.model == model]


def get_weight(model: str, name: str, **model_kwargs) -> WeightSpec:
    """The weight ``name`` of ``model`` whose ``model_kwargs`` agree with the given ones (None
    values are not given).

    Raises:
        ValueError: no weight matches (the message lists the weights of the model), or several
            do.
    """
    return _select(model, name, {k: v for k, v in model_kwargs.items() if v is not None}, {})


def _select(model: str, name: str, given: Mapping, defaults: Mapping) -> WeightSpec:
    rows = list_weights(model)
    named = [s for s in rows if s.name == name]
    matching = [s for s in named if all(_equal(given.get(k, v), v)
                                        for k, v in s.model_kwargs.items())]
    if len(matching) > 1:
        matching = [s for s in matching if all(_equal(defaults.get(k, v), v)
                                               for k, v in s.model_kwargs.items())]
    if len(matching) == 1:
        return matching[0]
    known = ', '.join(s.describe() for s in rows) or 'none'
    if not named:
        raise ValueError(f'{model}: unknown pretrained_model {name!r}: it is neither a weight '
                         f'of the manifest nor an existing file. The weights of {model} are: '
                         f'{known}')
    asked = ', '.join(f'{k}={v!r}' for k, v in given.items())
    raise ValueError(f'{model}: {"no" if not matching else "more than one"} weight {name!r} '
                     f'matches {asked or "the defaults"}; the weights of {model} are: {known}')


def _equal(a, b) -> bool:
    if isinstance(a, numpy.ndarray) or isinstance(b, numpy.ndarray):
        return numpy.array_equal(numpy.asarray(a, numpy.float64),
                                 numpy.asarray(b, numpy.float64))
    return a == b


def _import_models() -> None:
    """Imports the model families, which register their models and converters."""
    import vision.models  # noqa: F401


# --- what model constructors call ----------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Pretrained:
    """What :func:`prepare_pretrained_model` resolved.

    Attributes:
        spec (WeightSpec or None): the manifest row, for weights given by name.
        path (str or None): the file given by path.
    """

    spec: WeightSpec | None = None
    path: str | None = None
    converter: Converter | None = None
    preprocessing: Preprocessing | None = None

    def load(self, link) -> None:
        """Loads the weights into ``link`` and sets ``link.weight_spec`` (the manifest row or
        None)."""
        from framework.serializers import NpzDeserializer, load_npz
        link.weight_spec = self.spec
        if self.spec is not None:
            load_npz(self.spec.local_path(), link)
        elif self.converter.reads == 'torch':
            arrays = convert_checkpoint(self.path, self.converter, self.preprocessing)
            NpzDeserializer(arrays).load(link)
        else:
            load_npz(self.path, link, path=_npz_prefix(self.path, link))


def prepare_pretrained_model(model: str | None, pretrained_model: str | os.PathLike | None,
                             param: Mapping[str, Any], default: Mapping[str, Any],
                             torch_converter: str | None = None,
                             overwritable: tuple[str, ...] = ('mean',)
                             ) -> tuple[dict[str, Any], Pretrained | None]:
    """Resolves the constructor arguments of a model and the weights it loads (ChainerCV's
    ``prepare_pretrained_model``, with the manifest in place of the class's table).

    Args:
        model (str or None): the registered name of the model (None for an unregistered class,
            which can load files by path only).
        pretrained_model (str, path or None): a weight name of the manifest, the path of an NPZ
            file or PyTorch checkpoint, or None (or empty) for none.
        param (dict): the constructor arguments as given, None for those not given:
            ``n_class``, ``mean`` and the architecture arguments.
        default (dict): the values of the arguments that neither the caller nor the weights
            fix.
        torch_converter (str or None): the converter of PyTorch checkpoints given by path.
        overwritable (tuple of str): arguments the caller may set to another value than the
            weights' (ChainerCV's ``overwritable``: the mean).

    Returns:
        tuple: the resolved arguments (a new dict) and a :class:`Pretrained` (None without
        weights).

    Raises:
        ValueError: the name is unknown (the message lists the model's weights), the file is
            of no known kind, or an argument contradicts the weights (e.g. ``n_class``).
    """
    param = dict(param)
    pretrained = None
    if pretrained_model:
        path = os.fspath(pretrained_model)
        if os.path.isfile(path):
            pretrained, fixed = _prepare_file(model, path, torch_converter)
        elif model is None:
            raise ValueError(f'pretrained_model {path!r} is not a file (weights by name need '
                             'a registered model class)')
        else:
            given = {k: v for k, v in param.items() if v is not None}
            spec = _select(model, path, given, default)
            converter = get_converter(spec.converter)
            fixed = {**converter.model_kwargs, **spec.model_kwargs, 'n_class': spec.n_class,
                     'mean': spec.preprocessing.model_mean()}
            pretrained = Pretrained(spec=spec)
        for key, value in fixed.items():
            if param.get(key) is None:
                param[key] = value
            elif key not in overwritable and not _equal(param[key], value):
                raise ValueError(f'{model}: {key} must be {value!r} for the weights '
                                 f'{path!r}, but got {param[key]!r}')
    for key, value in default.items():
        if param.get(key) is None:
            param[key] = value
    return param, pretrained


def _prepare_file(model: str | None, path: str, torch_converter: str | None
                  ) -> tuple[Pretrained, dict[str, Any]]:
    kind = file_kind(path)
    if kind == 'npz':
        return Pretrained(path=path, converter=get_converter('npz')), {}
    if torch_converter is None:
        raise ValueError(f'{model}: {path} is a PyTorch checkpoint, but {model} has no '
                         'converter of PyTorch checkpoints')
    converter = get_converter(torch_converter)
    pretrained = Pretrained(path=path, converter=converter, preprocessing=IMAGENET_TORCHVISION)
    return pretrained, {**converter.model_kwargs, 'mean': IMAGENET_TORCHVISION.model_mean()}


def file_kind(path: str | os.PathLike) -> str:
    """Recognises a weight file by its content: ``'npz'`` or ``'torch'``.

    Raises:
        ValueError: it is neither an NPZ file nor a PyTorch checkpoint.
    """
    with open(path, 'rb') as f:
        head = f.read(4)
    if head == b'PK\x03\x04':
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
        if any(n.rsplit('/', 1)[-1] == 'data.pkl' for n in names):
            return 'torch'
        if names and all(n.endswith('.npy') for n in names):
            return 'npz'
    elif head[:1] == b'\x80':
        return 'torch'
    raise ValueError(f'{_WHO}: {os.fspath(path)} is neither an NPZ file nor a PyTorch '
                     'checkpoint')


def _npz_prefix(path: str, link) -> str:
    """The path under which ``link`` was saved in the NPZ file: ``''``, or e.g.
    ``'predictor/'`` for a model saved inside a classifier, ``'updater/model:main/'`` in a
    trainer snapshot."""
    name = next((n.lstrip('/') for n, _ in link.namedparams()), None)
    if name is None:
        return ''
    with numpy.load(path) as npz:
        keys = list(npz.files)
    if name in keys:
        return ''
    prefixes = sorted(k[:-len(name)] for k in keys
                      if k.endswith('/' + name) and k[:-len(name)].endswith('/'))
    return prefixes[0] if prefixes else ''


__all__ = [
    'Converter', 'IMAGENET_TORCHVISION', 'Preprocessing', 'Pretrained', 'WeightSpec',
    'describe_source', 'file_kind', 'get_converter', 'get_weight', 'label_names',
    'list_weights', 'load_manifest', 'manifest_path', 'prepare_pretrained_model',
    'register_converter',
]

"""What model constructors call: :func:`prepare_pretrained_model` resolves the
``pretrained_model`` argument (a weight's name, or the path of a local file recognised by its
content) and :class:`Pretrained` loads it into the model."""

from __future__ import annotations

import dataclasses
import os
import zipfile
from collections.abc import Mapping
from typing import Any

import numpy

from framework.serializers import NpzDeserializer, load_npz
from vision.weights.convert import Converter, convert_checkpoint, get_converter
from vision.weights.integrity import reporting_corruption
from vision.weights.lookup import select_weight, values_equal
from vision.weights.manifest import WeightSpec
from vision.weights.preprocessing import IMAGENET_TORCHVISION, Preprocessing

_WHO = 'vision.weights'

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
        None).

        Raises:
            CorruptWeightError: the cached file of a weight given by name is damaged; the
                message names it and the command that fetches it again.
        """
        link.weight_spec = self.spec
        if self.spec is not None:
            path = self.spec.local_path()
            with reporting_corruption(self.spec, path, 'npz'):
                load_npz(path, link)
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
            spec = select_weight(model, path, given, default)
            converter = get_converter(spec.converter)
            fixed = {**converter.model_kwargs, **spec.model_kwargs,
                     'mean': spec.preprocessing.model_mean()}
            if spec.n_class is not None:  # not the weights of an extractor
                fixed['n_class'] = spec.n_class
            pretrained = Pretrained(spec=spec)
        for key, value in fixed.items():
            if param.get(key) is None:
                param[key] = value
            elif key not in overwritable and not values_equal(param[key], value):
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

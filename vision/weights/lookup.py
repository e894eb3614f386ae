"""Finding a weight of the default manifest by model, name and constructor arguments, and the
local paths of its files."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy

from vision.weights.convert import get_converter
from vision.weights.fetch import fetch_files
from vision.weights.manifest import WeightSpec, load_manifest


def list_weights(model: str | None = None) -> list[WeightSpec]:
    """The weights of the default manifest.

    Args:
        model (str or None): a registered model's name; None for the weights of every model.

    Returns:
        list of WeightSpec: the rows, in the manifest's order.
    """
    return [s for s in load_manifest() if model is None or s.model == model]


def get_weight(model: str, name: str, **model_kwargs) -> WeightSpec:
    """The weight ``name`` of ``model`` whose ``model_kwargs`` agree with the given ones (None
    values are not given).

    Raises:
        ValueError: no weight matches (the message lists the weights of the model), or several
            do.
    """
    return select_weight(model, name, {k: v for k, v in model_kwargs.items() if v is not None},
                         {})


def fetch_weight_files(model: str, name: str, progress: bool | None = None,
                       **model_kwargs) -> dict[str, str]:
    """The local paths of the files a weight of the manifest is made of, fetched and verified
    when they are not in the cache yet.

    For instance ``fetch_weight_files('mtcnn', 'facenet-pytorch')`` gives the paths of
    ``'facenet_pytorch/data/pnet.pt'``, ``'facenet_pytorch/data/rnet.pt'`` and
    ``'facenet_pytorch/data/onet.pt'``, all three taken from one download of the
    ``facenet-pytorch`` wheel.

    Args:
        model (str): the registered model.
        name (str): the weight's name.
        progress (bool or None): as in :func:`vision.utils.cached_download`.
        model_kwargs: as in :func:`get_weight`.

    Returns:
        dict: the path of each file, by its name: its path in the package for a source of the
        Python Package Index, the file name of a URL, the path in the repository.

    Raises:
        ValueError: no weight matches.
        DownloadError: a file could not be fetched; the message says where to place it by hand.
        HashMismatchError: a file does not have its sha256.
        CorruptDownloadError: the file of a URL is not a whole file of its kind.
    """
    spec = get_weight(model, name, **model_kwargs)
    return fetch_files(spec, get_converter(spec.converter).reads, progress)


def matching_weights(model: str, name: str, given: Mapping[str, Any]) -> list[WeightSpec]:
    """The weights ``name`` of ``model`` whose ``model_kwargs`` agree with ``given`` (none, one
    or several), in the manifest's order."""
    return [s for s in list_weights(model) if s.name == name
            and all(values_equal(given.get(k, v), v) for k, v in s.model_kwargs.items())]


def select_weight(model: str, name: str, given: Mapping[str, Any],
                  defaults: Mapping[str, Any]) -> WeightSpec:
    """The weight ``name`` of ``model`` whose ``model_kwargs`` agree with ``given``; among
    several, the one that also agrees with ``defaults``.

    Raises:
        ValueError: no weight matches (the message lists the weights of the model), or several
            do.
    """
    rows = list_weights(model)
    named = [s for s in rows if s.name == name]
    matching = matching_weights(model, name, given)
    if len(matching) > 1:
        matching = [s for s in matching if all(values_equal(defaults.get(k, v), v)
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


def values_equal(a: Any, b: Any) -> bool:
    """Whether two constructor arguments are equal; arrays (a mean) compare element-wise."""
    if isinstance(a, numpy.ndarray) or isinstance(b, numpy.ndarray):
        return numpy.array_equal(numpy.asarray(a, numpy.float64),
                                 numpy.asarray(b, numpy.float64))
    return a == b

"""Removing the cached files of a weight, so that the next use fetches (and converts) them
again: what ``vision download --force`` does to a corrupt file."""

from __future__ import annotations

import os

from vision.utils.download import cached_path
from vision.weights.convert import converted_path, get_converter
from vision.weights.lookup import get_weight, matching_weights
from vision.weights.manifest import WeightSpec
from vision.weights.pypi import package_folder


def forget_weight(model: str, name: str, **model_kwargs) -> list[str]:
    """Deletes the cached files of the weight ``name`` of ``model``: the download (and a
    partial one), its conversion, the files taken from a package. A file of the repository
    stays. Among weights of one name that the given arguments do not tell apart (``imagenet``
    of ``resnet50``, with ``arch`` not given), the files of each are deleted.

    Args:
        model (str): the registered model.
        name (str): the weight's name.
        model_kwargs: constructor arguments, as in :func:`vision.weights.get_weight` (None
            values are not given; arguments that no weight has are ignored).

    Returns:
        list of str: the files deleted.

    Raises:
        ValueError: no weight matches (the message lists the weights of the model).
    """
    given = {k: v for k, v in model_kwargs.items() if v is not None}
    specs = matching_weights(model, name, given)
    if not specs:
        get_weight(model, name, **given)  # raises the error that lists the model's weights
    deleted = []
    for path in (p for spec in specs for p in _cached_files(spec)):
        if os.path.isfile(path):
            os.remove(path)
            deleted.append(path)
    return deleted


def _cached_files(spec: WeightSpec) -> list[str]:
    """The paths the files of a weight are cached at, whether they exist or not."""
    source = spec.source
    if 'url' in source:
        download = cached_path(source['url'])
        paths = [download, download + '.part']
    elif 'pypi' in source:
        folder = package_folder(source['pypi'])
        paths = [os.path.join(folder, *member.split('/')) for member in source['files']]
    else:
        paths = []
    if get_converter(spec.converter).convert is not None:
        paths.append(converted_path(spec))
    return paths

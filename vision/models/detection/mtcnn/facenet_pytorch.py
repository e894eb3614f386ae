"""facenet-pytorch's MTCNN weights (``pnet.pt``, ``rnet.pt``, ``onet.pt``), read without
PyTorch.

The three files are ``state_dict`` checkpoints whose keys are the layer names of
:class:`PNet`, :class:`RNet` and :class:`ONet` (``conv1.weight``, ``prelu1.weight``,
``dense4.bias``...), so a key maps to the parameter of the same path in :class:`MTCNN`
(``pnet/conv1/W``, ``pnet/prelu1/W``, ``rnet/dense4/b``) and every array keeps its shape.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

import numpy

from framework.serializers import NpzDeserializer, load_torch_state_dict

#: The nets of MTCNN and the file of each in the facenet-pytorch wheel.
FACENET_PYTORCH_FILES = {
    'pnet': 'facenet_pytorch/data/pnet.pt',
    'rnet': 'facenet_pytorch/data/rnet.pt',
    'onet': 'facenet_pytorch/data/onet.pt',
}
_SUFFIXES = {'weight': 'W', 'bias': 'b'}


def convert_facenet_pytorch(states: Mapping[str, Mapping[str, numpy.ndarray]]
                            ) -> dict[str, numpy.ndarray]:
    """MTCNN's parameters by NPZ key from facenet-pytorch's three state dicts.

    Args:
        states (dict): the state dict of each net (name -> array) by the net's name:
            ``'pnet'``, ``'rnet'`` and ``'onet'``.

    Returns:
        dict: the arrays by key (``'pnet/conv1/W'``...).

    Raises:
        ValueError: a net is missing, or a state dict has a key that is not a layer's
            ``weight`` or ``bias``.
    """
    missing = sorted(set(FACENET_PYTORCH_FILES) - set(states))
    if missing:
        raise ValueError(f'convert_facenet_pytorch: states must have the keys '
                         f'{sorted(FACENET_PYTORCH_FILES)}, but {missing} are missing')
    arrays = {}
    for net in FACENET_PYTORCH_FILES:
        for key, value in states[net].items():
            layer, _, kind = key.rpartition('.')
            if kind not in _SUFFIXES or not layer:
                raise ValueError(f'convert_facenet_pytorch: the state dict of {net} has the '
                                 f'key {key!r}, but only "<layer>.weight" and "<layer>.bias" '
                                 'are expected')
            arrays[f'{net}/{layer}/{_SUFFIXES[kind]}'] = value
    return arrays


def load_facenet_pytorch_weights(model, paths: Mapping[str, str | os.PathLike]) -> None:
    """Loads facenet-pytorch's checkpoints into an :class:`MTCNN`.

    Args:
        model (~vision.models.MTCNN): the model, filled in place.
        paths (dict): the path of each net's checkpoint (``pnet.pt``...) by the net's name:
            ``'pnet'``, ``'rnet'`` and ``'onet'``.

    Raises:
        ValueError: a net is missing from ``paths``.
        ~framework.serializers.NpzMismatchError: a parameter is missing or has another shape.
    """
    missing = sorted(set(FACENET_PYTORCH_FILES) - set(paths))
    if missing:
        raise ValueError(f'load_facenet_pytorch_weights: paths must have the keys '
                         f'{sorted(FACENET_PYTORCH_FILES)}, but {missing} are missing')
    states = {net: load_torch_state_dict(paths[net]) for net in FACENET_PYTORCH_FILES}
    NpzDeserializer(convert_facenet_pytorch(states)).load(model)

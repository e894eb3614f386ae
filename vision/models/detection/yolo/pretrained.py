"""Resolving the ``pretrained_model`` of a YOLO model: a weight of the manifest by name, an NPZ
file in ChainerCV's layout or a Darknet ``.weights`` file (recognised by content), with the
number of classes and the width they fix."""

from __future__ import annotations

import dataclasses
import os

import numpy

from vision.models.detection.yolo.darknet_weights import DarknetWeights, darknet_header_size
from vision.weights import Pretrained, file_kind, get_converter, get_weight

_FIRST_CONV = 'extractor/0/conv/W'


@dataclasses.dataclass(frozen=True)
class YOLOWeights:
    """What :func:`resolve_weights` found.

    Attributes:
        n_fg_class (int or None): the foreground classes; None for a Darknet file without
            ``n_fg_class`` given, whose length fixes it once the model's body is built
            (:meth:`DarknetWeights.n_fg_class`).
        base_channels (int): the width of the extractor.
        pretrained (vision.weights.Pretrained or None): weights by name or an NPZ file.
        darknet (DarknetWeights or None): a Darknet file.
    """

    n_fg_class: int | None
    base_channels: int
    pretrained: Pretrained | None = None
    darknet: DarknetWeights | None = None


def resolve_weights(cls: type, n_fg_class: int | None,
                    pretrained_model: str | os.PathLike | None,
                    base_channels: int | None) -> YOLOWeights:
    """The classes, the width and the weights of a YOLO model.

    Args:
        cls (type): the model's class: its ``model_name`` (in the manifest),
            ``_head_bias`` (the NPZ key of the first head's bias), ``_n_anchors`` (of a
            head) and ``_base_channels`` (its default width).
        n_fg_class (int or None): the foreground classes given.
        pretrained_model (str, path or None): a weight's name, a file, or None.
        base_channels (int or None): the width given.

    Returns:
        YOLOWeights: the resolution.

    Raises:
        ValueError: ``n_fg_class`` is missing or not a positive int, it or ``base_channels``
            contradicts the weights (the message names both), the name is unknown, or the
            file is of no kind a YOLO model reads.
    """
    name = cls.__name__
    if n_fg_class is not None and (
            isinstance(n_fg_class, bool) or not isinstance(n_fg_class, (int, numpy.integer))
            or n_fg_class < 1):
        raise ValueError(f'{name}: n_fg_class must be a positive int, but got {n_fg_class!r}')
    if base_channels is not None and (
            isinstance(base_channels, bool)
            or not isinstance(base_channels, (int, numpy.integer)) or base_channels < 1):
        raise ValueError(f'{name}: base_channels must be a positive int, but got '
                         f'{base_channels!r}')
    if not pretrained_model:
        if n_fg_class is None:
            raise ValueError(f'{name}: n_fg_class must be given when pretrained_model is None')
        return YOLOWeights(int(n_fg_class), base_channels or cls._base_channels)
    path = os.fspath(pretrained_model)
    if not os.path.isfile(path):
        spec = get_weight(cls.model_name, path)
        fixed_base = spec.model_kwargs.get('base_channels', cls._base_channels)
        weights = YOLOWeights(spec.n_class, fixed_base, pretrained=Pretrained(spec=spec))
        source = f'the weights {path!r} ({spec.describe()})'
    elif darknet_header_size(path) is not None:
        return YOLOWeights(None if n_fg_class is None else int(n_fg_class),
                           base_channels or cls._base_channels, darknet=DarknetWeights(path))
    else:
        fixed_n, fixed_base = _npz_head(cls, path)
        weights = YOLOWeights(fixed_n, fixed_base, pretrained=Pretrained(
            path=path, converter=get_converter('npz')))
        source = f'the file {path}'
    if n_fg_class is not None and n_fg_class != weights.n_fg_class:
        raise ValueError(f'{name}: n_fg_class={n_fg_class} contradicts {source}, which '
                         f'detect {weights.n_fg_class} foreground classes: leave n_fg_class '
                         f'out or pass n_fg_class={weights.n_fg_class}')
    if base_channels is not None and base_channels != weights.base_channels:
        raise ValueError(f'{name}: base_channels={base_channels} contradicts {source}, whose '
                         f'first convolution has {weights.base_channels} channels: leave '
                         f'base_channels out or pass base_channels={weights.base_channels}')
    return weights


def _npz_head(cls: type, path: str) -> tuple[int, int]:
    """The foreground classes of an NPZ file's first head and the channels of its first
    convolution.

    Raises:
        ValueError: the file is no NPZ file, or holds no head of the model.
    """
    name = cls.__name__
    try:
        kind = file_kind(path)
    except ValueError:
        kind = None
    if kind != 'npz':
        raise ValueError(f"{name}: pretrained_model {path!r} must be an NPZ file in "
                         "ChainerCV's layout or a Darknet weights file, but it is "
                         f"{'a PyTorch checkpoint' if kind else 'neither'}")
    with numpy.load(path) as npz:
        keys = sorted((k for k in npz.files if k == cls._head_bias
                       or k.endswith('/' + cls._head_bias)), key=len)
        if not keys:
            raise ValueError(f'{name}: the NPZ file {path} holds no {name} head (no key '
                             f'{cls._head_bias!r}, under any path)')
        prefix = keys[0][:-len(cls._head_bias)]
        n_fg_class = npz[keys[0]].shape[0] // cls._n_anchors - 5
        first = prefix + _FIRST_CONV
        base_channels = npz[first].shape[0] if first in npz.files else cls._base_channels
    return n_fg_class, base_channels

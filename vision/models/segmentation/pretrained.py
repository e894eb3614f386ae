"""Resolving a semantic segmentation model's ``pretrained_model``: the number of classes and
the other constructor arguments its weights fix, checked against those given, and the weights
to load."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable

import numpy

from framework.serializers import load_torch_state_dict
from vision.weights import Pretrained, file_kind, get_weight, prepare_pretrained_model


@dataclasses.dataclass(frozen=True)
class SegmentationWeights:
    """What :func:`prepare_segmentation_weights` resolved.

    Attributes:
        n_class (int): the number of classes.
        pretrained (vision.weights.Pretrained or None): the weights to load (None without
            weights); ``pretrained.load(model)`` loads them.
        classifier_shape (tuple of int or None): the shape of the classifier's filter in a
            file given by path, from which a model reads its width; None otherwise.
        source (str or None): the weights as the errors name them (``"the weights 'camvid'"``,
            ``'the file PATH'``).
    """

    n_class: int
    pretrained: Pretrained | None = None
    classifier_shape: tuple[int, ...] | None = None
    source: str | None = None

    @property
    def extractor_only(self) -> bool:
        """Whether the weights, given by name, are those of the model's extractor alone (their
        manifest row fixes no classes), to train the rest from."""
        spec = self.pretrained.spec if self.pretrained is not None else None
        return spec is not None and spec.n_class is None

    @property
    def model_kwargs(self) -> dict:
        """The ``model_kwargs`` of the manifest row of weights given by name (a new dict);
        empty for a file or without weights."""
        spec = self.pretrained.spec if self.pretrained is not None else None
        return dict(spec.model_kwargs) if spec is not None else {}

    def fixed_kwargs(self, width: Callable[[int], int], default_width: int) -> dict:
        """The constructor arguments that the weights fix: the ``model_kwargs`` of the
        manifest row of weights given by name, and ``base_channels``, which a file fixes by its
        classifier's input channels (``width(channels)``) and a row by its ``model_kwargs``
        (``default_width`` where they do not say). Empty without weights."""
        fixed = self.model_kwargs
        if self.classifier_shape is not None:
            fixed['base_channels'] = width(self.classifier_shape[1])
        elif self.pretrained is not None:
            fixed.setdefault('base_channels', default_width)
        return fixed

    def argument(self, model: str, key: str, given, fixed):
        """A constructor argument: ``given``, or what the weights fix (``fixed``; None: they
        fix nothing) when it is None (see :func:`agreed_argument`)."""
        return agreed_argument(model, key, given, fixed, self.source)


def agreed_argument(model: str, key: str, given, fixed, source: str | None):
    """A constructor argument: ``given``, or what the weights fix when it is None.

    Args:
        model (str): the registered model, named by the error.
        key (str): the argument's name.
        given: its value as given (None: not given).
        fixed: its value as the weights fix it (None: they do not).
        source (str or None): the weights, as the error names them.

    Raises:
        ValueError: both are given and differ (the message names both).
    """
    if given is None or fixed is None:
        return fixed if given is None else given
    if given != fixed:
        raise ValueError(f'{model}: {key}={given!r} contradicts {source}, made for '
                         f'{key}={fixed!r}: leave {key} out or pass {key}={fixed!r}')
    return given


def prepare_segmentation_weights(model: str, n_class: int | None,
                                 pretrained_model: str | os.PathLike | None, classifier: str,
                                 torch_classifier: tuple[str, str] | None = None
                                 ) -> SegmentationWeights:
    """The number of classes, as given or as the weights fix it, and the weights to load.

    Weights by name fix ``n_class`` by their manifest row (unless they are the weights of an
    extractor, whose row fixes no classes); an NPZ file (or a PyTorch checkpoint, for a model
    that converts them) by the first axis of its classifier's filter.

    Args:
        model (str): the registered model, named by the errors.
        n_class (int or None): the number of classes given.
        pretrained_model (str, path or None): a weight's name, an NPZ file, or None.
        classifier (str): the key of the filter of the last convolution (its output channels
            are the classes), e.g. ``'conv_classifier/W'``.
        torch_classifier (pair of str or None): for a model that converts PyTorch checkpoints
            given by path, the converter's name and the state-dict key of that filter, e.g.
            ``('torchvision_fcn', 'classifier.4.weight')``; None: checkpoints are refused.

    Returns:
        SegmentationWeights: the classes, the weights and what else they fix.

    Raises:
        ValueError: neither gives ``n_class``, it is not a positive int, the weights are
            unknown, the file is not an NPZ file (or checkpoint) of the model, or ``n_class``
            contradicts the weights (the message names both).
    """
    if n_class is not None and (isinstance(n_class, bool)
                                or not isinstance(n_class, (int, numpy.integer)) or n_class < 1):
        raise ValueError(f'{model}: n_class must be a positive int, but got {n_class!r}')
    if not pretrained_model:
        if n_class is None:
            raise ValueError(f'{model}: n_class must be given when pretrained_model is None')
        return SegmentationWeights(int(n_class))
    path = os.fspath(pretrained_model)
    shape = None
    torch_converter = None if torch_classifier is None else torch_classifier[0]
    if os.path.isfile(path):
        if torch_converter is not None and file_kind(path) == 'torch':
            shape = _torch_array_shape(model, path, torch_classifier[1])
        else:
            shape = _npz_array_shape(model, path, classifier)
        fixed, source = shape[0], f'the file {path}'
    else:
        fixed, source = get_weight(model, path).n_class, f'the weights {path!r}'
        if fixed is None and n_class is None:
            raise ValueError(f'{model}: n_class must be given with {source}, the weights of '
                             'an extractor, which fix no classes')
    n_class = agreed_argument(model, 'n_class', n_class, fixed, source)
    _, pretrained = prepare_pretrained_model(model, path, {'n_class': n_class, 'mean': None},
                                             {'mean': None}, torch_converter)
    return SegmentationWeights(int(n_class), pretrained, shape, source)


def _npz_array_shape(model: str, path: str, key: str) -> tuple[int, ...]:
    """The shape of the array ``key`` of an NPZ file in Chainer's layout, at its root or under
    any prefix (``'predictor/'`` in a train chain's file, ``'updater/model:main/predictor/'``
    in a trainer's snapshot), the shortest first.

    Raises:
        ValueError: the file is not an NPZ file, or holds no such array.
    """
    if file_kind(path) != 'npz':
        raise ValueError(f"{model}: pretrained_model {path!r} must be an NPZ file in Chainer's "
                         'layout, but it is a PyTorch checkpoint')
    with numpy.load(path) as npz:
        keys = sorted((k for k in npz.files if k == key or k.endswith('/' + key)), key=len)
        if not keys:
            raise ValueError(f'{model}: the NPZ file {path} holds no {key!r} (under any path): '
                             f'it is not a {model}')
        return tuple(npz[keys[0]].shape)


def _torch_array_shape(model: str, path: str, key: str) -> tuple[int, ...]:
    """The shape of the array ``key`` of a PyTorch checkpoint holding a state dict.

    Raises:
        ValueError: the checkpoint holds no such array.
    """
    array = load_torch_state_dict(path).get(key)
    if array is None:
        raise ValueError(f'{model}: the checkpoint {path} holds no {key!r}: it is not a {model}')
    return tuple(array.shape)

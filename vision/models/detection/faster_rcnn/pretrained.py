"""Resolving a detector's ``pretrained_model``: the number of classes its weights fix, checked
against the one given, and the weights to load."""

from __future__ import annotations

import os

import numpy

from vision.weights import Pretrained, file_kind, get_weight, prepare_pretrained_model

_SCORE_BIAS = 'head/score/b'


def prepare_detector_weights(model: str, n_fg_class: int | None,
                             pretrained_model: str | os.PathLike | None, mean: numpy.ndarray,
                             score_bias: str = _SCORE_BIAS, channels_per_class: int = 1
                             ) -> tuple[int, Pretrained | None]:
    """The number of foreground classes (:func:`resolve_n_fg_class`) and the weights to load
    (:func:`vision.weights.prepare_pretrained_model`: a manifest's weight by name, or an NPZ
    file).

    Args:
        model (str): the registered model.
        n_fg_class (int or None): the number of foreground classes given.
        pretrained_model (str, path or None): a weight's name, an NPZ file, or None.
        mean (numpy.ndarray): ``(3, 1, 1)``, the model's mean.
        score_bias (str): the NPZ key of the bias of the classifier, whose length is the
            number of classes, background included (Faster R-CNN VGG-16's by default), times
            ``channels_per_class``.
        channels_per_class (int): the entries of ``score_bias`` per class (1 for a
            classifier; FCIS's score maps have ``2 * group_size ** 2``).

    Returns:
        tuple: the number of foreground classes and a :class:`vision.weights.Pretrained`
        (None without weights), whose ``load(model)`` loads them.

    Raises:
        ValueError: as :func:`resolve_n_fg_class` and
            :func:`vision.weights.prepare_pretrained_model` raise.
    """
    n_fg_class = resolve_n_fg_class(model, n_fg_class, pretrained_model, score_bias,
                                    channels_per_class)
    if not pretrained_model:
        return n_fg_class, None
    _, pretrained = prepare_pretrained_model(model, pretrained_model,
                                             {'n_class': n_fg_class, 'mean': None},
                                             {'mean': mean})
    return n_fg_class, pretrained


def resolve_n_fg_class(model: str, n_fg_class: int | None,
                       pretrained_model: str | os.PathLike | None,
                       score_bias: str = _SCORE_BIAS, channels_per_class: int = 1) -> int:
    """``n_fg_class`` as given, or as the weights fix it.

    Weights by name fix it by their manifest row (``n_class``; not the weights of an
    extractor, whose ``n_class`` is None); an NPZ file by the length of its ``score_bias``
    (``head/score/b`` by default; background included) over ``channels_per_class``, under any
    prefix.

    Args:
        model (str): the registered model, named by the errors.
        n_fg_class (int or None): the number of foreground classes given.
        pretrained_model (str, path or None): a weight's name, an NPZ file, or None for
            weights that fix nothing.
        score_bias (str): the NPZ key of the classifier's bias.
        channels_per_class (int): the entries of that bias per class.

    Returns:
        int: the number of foreground classes.

    Raises:
        ValueError: neither gives it, it is not a positive int, the weights are unknown, or
            the two disagree (the message names both).
    """
    fixed, source = None, None
    if pretrained_model:
        path = os.fspath(pretrained_model)
        if os.path.isfile(path):
            fixed = _npz_n_fg_class(path, score_bias, channels_per_class)
            source = f'the file {path}'
        else:
            fixed, source = get_weight(model, path).n_class, f'the weights {path!r}'
            if fixed is None and n_fg_class is None:
                raise ValueError(f'{model}: n_fg_class must be given with pretrained_model='
                                 f'{path!r} (the weights of the extractor only)')
    if n_fg_class is None:
        if fixed is None:
            raise ValueError(f'{model}: n_fg_class must be given when pretrained_model '
                             f'({pretrained_model!r}) does not fix it')
        return fixed
    if isinstance(n_fg_class, bool) or not isinstance(n_fg_class, (int, numpy.integer)) \
            or n_fg_class < 1:
        raise ValueError(f'{model}: n_fg_class must be a positive int, but got {n_fg_class!r}')
    if fixed is not None and fixed != n_fg_class:
        raise ValueError(f'{model}: n_fg_class={n_fg_class} contradicts {source}, made for '
                         f'{fixed} foreground classes: leave n_fg_class out or pass '
                         f'n_fg_class={fixed}')
    return int(n_fg_class)


def _npz_n_fg_class(path: str, score_bias: str, channels_per_class: int) -> int | None:
    """The foreground classes of an NPZ file's head (None: not an NPZ file, or no head)."""
    if file_kind(path) != 'npz':
        return None
    with numpy.load(path) as npz:
        keys = [k for k in npz.files if k == score_bias or k.endswith('/' + score_bias)]
        if not keys:
            return None
        return int(npz[sorted(keys, key=len)[0]].shape[0]) // channels_per_class - 1

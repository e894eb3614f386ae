"""Checks and helpers shared by the functions that draw instances (boxes, masks)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy


def check_instances(fname: str, n_inst: int, label, score, label_names) -> None:
    """Checks that ``label`` and ``score`` have one entry per instance and that every label
    indexes ``label_names``."""
    for name, values in (('label', label), ('score', score)):
        if values is not None and len(values) != n_inst:
            raise ValueError(f'{fname}: {name} must have one entry per instance ({n_inst}), '
                             f'but got {len(values)}')
    if label is not None and label_names is not None and n_inst:
        label = numpy.asarray(label)
        outside = (label < 0) | (label >= len(label_names))
        if outside.any():
            raise ValueError(f'{fname}: label must be in [0, {len(label_names)}) to index '
                             f'label_names, but got {label[outside][0]}')


def per_instance_colors(fname: str, colors, n_inst: int) -> numpy.ndarray:
    """Returns one RGB colour per instance, ``(n_inst, 3)`` float64 in [0, 255]; colours are
    reused cyclically when fewer are given."""
    colors = numpy.asarray(colors, dtype=numpy.float64)
    if colors.ndim != 2 or colors.shape[1] != 3 or len(colors) == 0:
        raise ValueError(f'{fname}: instance_colors must be a non-empty sequence of RGB '
                         f'triples, but got shape {colors.shape}')
    return colors[numpy.arange(n_inst) % len(colors)]


def drawing_order(score, sort_by_score: bool, n_inst: int) -> numpy.ndarray:
    """Indices of the instances in drawing order: by ascending score (the best drawn last,
    in front) when asked and scores are given, else as given."""
    if sort_by_score and score is not None:
        return numpy.argsort(numpy.asarray(score), kind='stable')
    return numpy.arange(n_inst)


def caption(i: int, label, score, label_names: Sequence[str] | None) -> str:
    """``'name: 0.87'``, ``'name'``, ``'0.87'`` or ``''`` for instance ``i``."""
    parts = []
    if label is not None and label_names is not None:
        parts.append(str(label_names[int(label[i])]))
    if score is not None:
        parts.append(f'{float(score[i]):.2f}')
    return ': '.join(parts)


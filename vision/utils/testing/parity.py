"""The weight rule of the parity fixtures: every parameter filled from its own name.

Reference outputs of peer implementations (ChainerCV, torchvision...) are recorded for weights
that anyone can rebuild from the parameter names alone, so that a model with the same names and
shapes, filled by the same rule, must give the same outputs:

- the seed of a parameter is ``zlib.crc32(name) & 0xFFFFFFFF``, the generator
  ``numpy.random.RandomState(seed)``;
- the leaf of the name (after the last ``/`` or ``.``) chooses the distribution: kernels
  (``W``, ``weight`` with two axes or more) ``standard_normal * sqrt(1 / fan_in)``; scales
  (``gamma``, a 1-d ``weight``) ``1 + 0.1 * standard_normal``; variances (``avg_var``,
  ``running_var``) ``uniform(0.5, 1.5)``; shifts and means (``b``, ``beta``, ``avg_mean``,
  ``bias``, ``running_mean``) ``0.1 * standard_normal``; anything else
  ``1 + 0.1 * standard_normal``;
- non-floating arrays (counters) are zeros.

The names are those of the peer: Chainer link paths (``/res2/a/conv1/conv/W``) or PyTorch
state-dict keys (``layer1.0.conv1.weight``). ``<model>_params.tsv`` files list them with their
shapes and dtypes.
"""

from __future__ import annotations

import csv
import os
import re
import zlib

import numpy

_SHIFTS = ('b', 'beta', 'avg_mean', 'bias', 'running_mean')
_VARIANCES = ('avg_var', 'running_var')


def rule_array(name: str, shape: tuple[int, ...], dtype=numpy.float32) -> numpy.ndarray:
    """The array of the parameter ``name`` under the weight rule (see the module docstring).

    Args:
        name (str): the parameter's name in its peer's naming.
        shape (tuple of int): its shape.
        dtype: its dtype; non-floating dtypes give zeros.

    Returns:
        numpy.ndarray: of ``shape`` and ``dtype``.
    """
    dtype = numpy.dtype(dtype)
    shape = tuple(shape)
    if dtype.kind != 'f':
        return numpy.zeros(shape, dtype)
    rng = numpy.random.RandomState(zlib.crc32(name.encode()) & 0xFFFFFFFF)
    leaf = re.split(r'[/.]', name)[-1]
    if leaf in ('W', 'weight') and len(shape) >= 2:
        value = rng.standard_normal(shape) * numpy.sqrt(1 / numpy.prod(shape[1:]))
    elif leaf in _VARIANCES:
        value = rng.uniform(0.5, 1.5, shape)
    elif leaf in _SHIFTS:
        value = 0.1 * rng.standard_normal(shape)
    else:
        value = 1 + 0.1 * rng.standard_normal(shape)
    return numpy.asarray(value, dtype)


def read_params_tsv(path: str | os.PathLike) -> list[tuple[str, tuple[int, ...], numpy.dtype]]:
    """Reads a ``<model>_params.tsv`` file: ``(name, shape, dtype)`` for every row."""
    with open(path, newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f, delimiter='\t'))
    return [(row[0], tuple(int(n) for n in row[1].split(',') if n), numpy.dtype(row[2]))
            for row in rows[1:]]


def rule_state(path: str | os.PathLike) -> dict[str, numpy.ndarray]:
    """Every parameter listed in a ``_params.tsv`` file, filled by the rule, by name."""
    return {name: rule_array(name, shape, dtype) for name, shape, dtype in read_params_tsv(path)}


def npz_key(name: str) -> str:
    """The NPZ key of a Chainer link path: ``/extractor/conv1_1/W`` -> ``extractor/conv1_1/W``."""
    return name.lstrip('/')


def tsv_shapes(path: str | os.PathLike) -> dict[str, tuple[int, ...]]:
    """The NPZ keys and shapes that a ``_params.tsv`` file of Chainer link paths lists."""
    return {npz_key(name): shape for name, shape, _ in read_params_tsv(path)}


def rule_npz_state(path: str | os.PathLike) -> dict[str, numpy.ndarray]:
    """:func:`rule_state` of a ``_params.tsv`` file of Chainer link paths, by NPZ key (what
    :class:`~framework.serializers.NpzDeserializer` reads)."""
    return {npz_key(name): value for name, value in rule_state(path).items()}


def model_shapes(model) -> dict[str, tuple[int, ...] | None]:
    """Every parameter and floating-point persistent of a model by NPZ key, with its shape
    (None while uninitialized): what a ``_params.tsv`` file lists of it."""
    shapes = {npz_key(name): None if p.array is None else p.array.shape
              for name, p in model.namedparams()}
    for name, value in model.namedpersistents():
        if isinstance(value, numpy.ndarray) and value.dtype.kind == 'f':
            shapes[npz_key(name)] = value.shape
    return shapes

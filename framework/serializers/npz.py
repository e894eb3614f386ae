"""Saving and loading objects in NPZ files, with Chainer's key layout.

The hierarchy of an object is flattened into ``/``-separated keys: a Chain's parameters are
``conv1/W``, ``bn/avg_mean``; an optimizer saved inside a trainer snapshot writes
``updater/optimizer:main/conv1/W/v``. Files written by Chainer load here and the other way
round. ``None`` values are stored as a 0-dimensional object array holding ``None``, as Chainer
does; they are read back without letting the file run code (see
:class:`~framework.serializers._npz_archive.NpzArchive`).
"""

from __future__ import annotations

import os

import numpy

from framework import backend
from framework.serializers._atomic import atomic_write
from framework.serializers._npz_archive import NpzArchive
from framework.serializers.serializer import Deserializer, Serializer


class NpzMismatchError(KeyError, ValueError, TypeError):
    """The file does not match the object being loaded.

    The message lists every problem found: keys the object needs that the file lacks, values
    whose shapes differ, values that cannot be cast safely, and (as a hint) the keys of the
    file that nothing read. It is a :class:`KeyError` (what Chainer raises for a missing key),
    a :class:`TypeError` (what it raises for an unsafe cast) and a :class:`ValueError`.
    """

    def __init__(self, message: str, missing_key: str | None = None,
                 problems: dict[str, list[str]] | None = None, unread: list[str] | None = None):
        super().__init__(message)
        #: The missing key that stopped the loading, if one did.
        self.missing_key = missing_key
        #: The problems by kind (``'missing'``, ``'shape'``, ``'type'``): lists of keys, each
        #: followed by its detail where there is one.
        self.problems = problems or {}
        #: The keys of the file that nothing read.
        self.unread = unread or []

    def __str__(self):
        return str(self.args[0]) if self.args else ''

    def summary(self, n_examples: int = 3) -> str:
        """The problems in one line: how many of each kind, with a few examples.

        Args:
            n_examples (int): how many keys of each kind to show.
        """
        parts = []
        for kind, items in self.problems.items():
            if items:
                parts.append(f'{len(items)} {_Problems._TITLES[kind]} (e.g. '
                             f'{"; ".join(items[:n_examples])})')
        if self.unread:
            parts.append(f'{len(self.unread)} keys of the file that nothing read (e.g. '
                         f'{", ".join(sorted(self.unread)[:n_examples])})')
        return ', '.join(parts) or str(self)


class DictionarySerializer(Serializer):
    """Serializes an object into a flat dictionary of host arrays.

    The dictionary can be written with :func:`numpy.savez`; :func:`save_npz` does that.

    Args:
        target (dict): the dictionary the arrays are written to (a new one if None).
        path (str): the path of this node in the hierarchy (``''`` or ending with ``/``).

    Attributes:
        target (dict): key (``'conv1/W'``) -> NumPy array. Arrays of other devices are copied
            to the host; scalars become 0-dimensional arrays and ``None`` a 0-dimensional
            object array holding ``None``.
    """

    def __init__(self, target: dict | None = None, path: str = ''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key: str) -> DictionarySerializer:
        return DictionarySerializer(self.target, self.path + key.strip('/') + '/')

    def __call__(self, key: str, value):
        key = self.path + key.lstrip('/')
        self.target[key] = _to_host(key, value)
        return value


def _to_host(key, value) -> numpy.ndarray:
    if value is None:
        return numpy.asarray(None)
    if backend.is_array(value):
        return backend.CpuDevice().send(value)
    if isinstance(value, (numpy.generic, bool, int, float, complex, str, bytes)):
        return numpy.asarray(value)
    raise TypeError(f'DictionarySerializer: the value of {key!r} must be an array, a scalar '
                    f'or None, but got {type(value).__name__}')


def save_npz(file, obj, compression: bool = True) -> None:
    """Saves an object (anything with a ``serialize`` method) to an NPZ file.

    A path is written atomically: the data go to a temporary file in the same directory that
    then replaces ``file``, so an interrupted save leaves the previous file intact.

    Args:
        file (str, os.PathLike or file object): the path (written as given: no ``.npz`` is
            appended) or a binary file object open for writing.
        obj: the object to save, e.g. a :class:`~framework.Link` or an optimizer.
        compression (bool): whether the archive is compressed.
    """
    serializer = DictionarySerializer()
    serializer.save(obj)
    savez = numpy.savez_compressed if compression else numpy.savez
    if isinstance(file, (str, os.PathLike)):
        with atomic_write(file) as f:
            savez(f, **serializer.target)
    else:
        savez(file, **serializer.target)


class NpzDeserializer(Deserializer):
    """Deserializes an object from the arrays of an NPZ file.

    Arrays of the object are filled in place (on their own device; the values are cast as
    :func:`numpy.copyto` does, refusing casts across kinds such as float to int); ``None``
    values of the object are replaced by the host arrays read; scalars are converted to the
    scalar's type.

    Args:
        npz: the arrays: an :class:`~framework.serializers._npz_archive.NpzArchive`, what
            :func:`numpy.load` returns for an ``.npz`` file, or any mapping from key to array.
        path (str): the path of this node in the hierarchy (``''`` or ending with ``/``).
        strict (bool): whether a key that the object needs and the file lacks is an error;
            when False, such values are left as they are.
        ignore_names (str, callable or list of them): keys (full paths such as
            ``'fc8/W'``) or predicates on keys of values that are not loaded.

    :meth:`load` reads the whole object and then raises one :class:`NpzMismatchError` that
    lists every problem (missing keys, shape and type mismatches, unread keys as a hint);
    the values that matched have been loaded. Only a missing key whose value the object does
    not have yet (``None``) stops it at once, as in Chainer, since the caller may handle it.
    Calling the deserializer directly raises at the first problem.
    """

    def __init__(self, npz, path: str = '', strict: bool = True, ignore_names=None):
        self.npz = npz
        self.path = path
        self.strict = strict
        self.ignore_names = [] if ignore_names is None else ignore_names
        self._problems: _Problems | None = None

    def __getitem__(self, key: str) -> NpzDeserializer:
        child = NpzDeserializer(self.npz, self.path + key.strip('/') + '/', self.strict,
                                self.ignore_names)
        child._problems = self._problems
        return child

    def __call__(self, key: str, value):
        key = self.path + key.lstrip('/')
        if self._is_ignored(key):
            return value
        if key not in self.npz:
            if not self.strict:
                return value
            if self._problems is None or value is None:
                # Raised at once: a caller with no value may handle it (Chainer's update rules
                # of parameters whose update is disabled leave their state to be made later).
                raise NpzMismatchError(_Problems.single(key, 'missing', None), key)
            self._problems.add(key, 'missing', None)
            return value
        if self._problems is not None:
            self._problems.read.add(key)
        dataset = numpy.asarray(self.npz[key])
        if dataset.dtype.hasobject and dataset.shape == () and dataset[()] is None:
            return None
        if value is None:
            return dataset
        problem = _mismatch(value, dataset)
        if problem is not None:
            self._report(key, *problem)
            return value
        if backend.is_array(value):
            value[...] = backend.get_device_from_array(value).send(
                dataset.astype(value.dtype, copy=False))
            return value
        return type(value)(dataset)

    def load(self, obj) -> None:
        """Loads ``obj``; raises :class:`NpzMismatchError` listing every problem found."""
        collector = NpzDeserializer(self.npz, self.path, self.strict, self.ignore_names)
        collector._problems = problems = _Problems()
        try:
            obj.serialize(collector)
        except NpzMismatchError as error:
            if error.missing_key is None:
                raise
            problems.add(error.missing_key, 'missing', None)
            problems.stopped_at = error.missing_key
        if problems.any():
            unread = [k for k in self.npz if k.startswith(self.path)
                      and k not in problems.read and not self._is_ignored(k)]
            raise NpzMismatchError(problems.message('load_npz', self.path, unread),
                                   problems={k: v for k, v in problems.found.items() if v},
                                   unread=unread)

    def _report(self, key, kind, detail):
        if self._problems is None:
            raise NpzMismatchError(_Problems.single(key, kind, detail))
        self._problems.add(key, kind, detail)

    def _is_ignored(self, key: str) -> bool:
        names = self.ignore_names
        for name in names if isinstance(names, (list, tuple)) else (names,):
            if isinstance(name, str):
                if key == name:
                    return True
            elif callable(name):
                if name(key):
                    return True
            else:
                raise ValueError('NpzDeserializer: ignore_names must be a string, a callable or '
                                 f'a list of them, but got an item of type {type(name).__name__}')
        return False


def _mismatch(value, dataset: numpy.ndarray) -> tuple[str, str] | None:
    """Why ``dataset`` cannot be loaded into ``value``: ``(kind, detail)``, or None."""
    if backend.is_array(value):
        if dataset.shape != value.shape:
            return 'shape', f'{dataset.shape} in the file, {value.shape} in the object'
        if not numpy.can_cast(dataset.dtype, value.dtype, 'same_kind'):
            return 'type', f'{dataset.dtype} in the file cannot be cast to {value.dtype}'
        return None
    value_type = type(value)
    if dataset.ndim != 0 and isinstance(value, (numpy.generic, bool, int, float, complex)):
        return 'shape', f'{dataset.shape} in the file, a scalar in the object'
    # As in Chainer: a number must be castable safely, except integers into a Python int
    # (which has unlimited precision).
    if (issubclass(dataset.dtype.type, numpy.number)
            and not (issubclass(dataset.dtype.type, numpy.integer) and value_type is int)
            and not numpy.can_cast(dataset.dtype, value_type)):
        return 'type', (f'{dataset.dtype} in the file cannot be cast safely to the '
                        f'{value_type.__name__} of the object')
    return None


class _Problems:
    """What :meth:`NpzDeserializer.load` found wrong, to report all at once."""

    _TITLES = {
        'missing': 'keys missing from the file',
        'shape': 'shape mismatches',
        'type': 'type mismatches',
    }

    def __init__(self):
        self.read: set[str] = set()
        self.found: dict[str, list[str]] = {kind: [] for kind in self._TITLES}
        self.stopped_at: str | None = None

    def add(self, key: str, kind: str, detail: str | None) -> None:
        self.found[kind].append(key if detail is None else f'{key}: {detail}')

    def any(self) -> bool:
        return any(self.found.values())

    def message(self, who: str, path: str, unread: list[str]) -> str:
        where = f" under the path '{path}'" if path else ''
        lines = [f'{who}: the file does not match the object{where}:']
        for kind, items in self.found.items():
            if items:
                lines.append(f'  {self._TITLES[kind]} ({len(items)}): ' + ', '.join(items))
        if self.stopped_at is not None:
            lines.append(f'  loading stopped at {self.stopped_at!r}, a value that the object '
                         'does not have yet, so more keys may be missing')
        if unread:
            lines.append(f'  keys of the file that nothing read ({len(unread)}): '
                         + ', '.join(sorted(unread)))
        if self.found['missing']:
            lines.append('Pass strict=False to leave missing values as they are, or '
                         'ignore_names to skip some keys.')
        return '\n'.join(lines)

    @classmethod
    def single(cls, key: str, kind: str, detail: str | None) -> str:
        problems = cls()
        problems.add(key, kind, detail)
        return problems.message('NpzDeserializer', '', [])


def load_npz(file, obj, path: str = '', strict: bool = True, ignore_names=None) -> None:
    """Loads an object (anything with a ``serialize`` method) from an NPZ file.

    Args:
        file (str, os.PathLike or file object): the file, e.g. written by :func:`save_npz` or
            by Chainer's ``save_npz``.
        obj: the object to load into; its arrays are filled on their own devices.
        path (str): the path within the file where ``obj`` was saved, e.g.
            ``'updater/model:main/'`` to load a model from a trainer snapshot.
        strict (bool): whether a value that ``obj`` needs and the file lacks is an error.
        ignore_names (str, callable or list of them): keys or predicates on keys (full paths
            in the file) of values not to load.

    Raises:
        NpzMismatchError: listing every missing key, shape or type mismatch (with the keys
            nothing read); the values that matched have been loaded.
    """
    with NpzArchive(file) as npz:
        NpzDeserializer(npz, path=path, strict=strict, ignore_names=ignore_names).load(obj)

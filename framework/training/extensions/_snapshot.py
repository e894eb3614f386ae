"""snapshot and snapshot_object: save the trainer (to resume it) or any object, atomically."""

from __future__ import annotations

import contextlib
import os
import pickle
import re
import warnings
import zipfile
import zlib
from collections.abc import Callable

import numpy

from framework.serializers._npz_archive import NpzArchive
from framework.serializers.npz import DictionarySerializer, NpzDeserializer
from framework.training import extension
from framework.training.extensions.snapshot_writers import SimpleWriter, Writer

# What reading a damaged or half-written NPZ file raises.
_READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, KeyError,
                pickle.UnpicklingError)


class _Serialized(dict):
    """A serialized object: a flat dict ``key -> host array``. It is also serializable, so that
    a saving function that takes an object (:func:`~framework.serializers.save_npz`) and one
    that takes a dict (as Chainer's writers pass) can both save it."""

    def serialize(self, serializer) -> None:
        for key, value in self.items():
            serializer(key, value)


def _serialize(target) -> _Serialized:
    """The arrays of ``target`` as host copies (a writer in another thread may write them
    while the training goes on)."""
    serializer = DictionarySerializer()
    serializer.save(target)
    return _Serialized((key, numpy.array(value, copy=True))
                       for key, value in serializer.target.items())


def snapshot(savefun: Callable | None = None,
             filename: str | Callable = 'snapshot_iter_{.updater.iteration}', *, target=None,
             condition: Callable | None = None, writer: Writer | None = None,
             snapshot_on_error: bool = False, n_retains: int = -1,
             autoload: bool = False) -> _Snapshot:
    """Returns an extension that saves the trainer (or ``target``) to the output directory.

    A trainer snapshot holds everything that changes during the training (parameters and
    persistent values, optimizer states, iterator positions and orders, extension and trigger
    states), so that the training can be resumed: load it into a trainer built as the first
    one with :func:`~framework.serializers.load_npz` before :meth:`Trainer.run`, or pass
    ``autoload=True``. Files are written atomically (see :mod:`.snapshot_writers`). The
    extension runs once per epoch by default, after every other extension of the iteration.

    Args:
        savefun (callable): ``savefun(path, target)``; :func:`~framework.serializers.
            save_npz` by default. Cannot be given together with ``writer``.
        filename (str or callable): the file name: a format string filled with the trainer
            (``'snapshot_iter_{.updater.iteration}'``), or a function of the trainer.
        target: the object to save; the trainer when None.
        condition (callable): called with no argument; the snapshot is skipped when it
            returns False.
        writer (Writer): how the file is written (:class:`~.snapshot_writers.SimpleWriter`
            of ``savefun`` when None).
        snapshot_on_error (bool): whether to take a snapshot when the training loop raises.
        n_retains (int): how many snapshots to keep (those of the highest iterations); all
            when not positive. Needs a format-string ``filename``.
        autoload (bool): whether to load, before the training starts, the snapshot of the
            highest iteration found in the output directory (NPZ files whose names fit
            ``filename``). A file that cannot be read whole is skipped with a warning and the
            next one is tried; a file that reads but does not fit the target raises. The
            snapshot is loaded before the other extensions are initialized.

    Returns:
        The snapshot extension.
    """
    if savefun is not None and writer is not None:
        raise TypeError('snapshot: savefun and writer cannot be given together; give the '
                        'saving function to the writer')
    if writer is None:
        writer = SimpleWriter() if savefun is None else SimpleWriter(savefun=savefun)
    return _Snapshot(target=target, condition=condition, writer=writer, filename=filename,
                     snapshot_on_error=snapshot_on_error, n_retains=n_retains,
                     autoload=autoload)


def snapshot_object(target, filename: str | Callable, savefun: Callable | None = None,
                    **kwargs) -> _Snapshot:
    """Returns an extension that saves ``target`` (e.g. the model) to the output directory.

    Args:
        target: the object to save (anything with a ``serialize`` method).
        filename (str or callable): the file name, a format string filled with the trainer
            (``'model_iter_{.updater.iteration}'``), or a function of the trainer.
        savefun (callable): ``savefun(path, target)``; :func:`~framework.serializers.
            save_npz` by default.
        kwargs: ``condition``, ``writer``, ``snapshot_on_error``, ``n_retains``, ``autoload``
            as for :func:`snapshot`.
    """
    return snapshot(savefun=savefun, filename=filename, target=target, **kwargs)


def _always_true() -> bool:
    return True


class _Snapshot(extension.Extension):
    """The extension made by :func:`snapshot` and :func:`snapshot_object`."""

    trigger = 1, 'epoch'
    priority = extension.PRIORITY_SNAPSHOT

    def __init__(self, target=None, condition: Callable | None = None,
                 writer: Writer | None = None,
                 filename: str | Callable = 'snapshot_iter_{.updater.iteration}',
                 snapshot_on_error: bool = False, n_retains: int = -1, autoload: bool = False):
        if autoload and not isinstance(filename, str):
            raise TypeError('snapshot: autoload needs filename to be a format string, to find '
                            'the snapshots, but got a callable')
        self._target = target
        self.filename = filename
        self.condition = _always_true if condition is None else condition
        self.writer = SimpleWriter() if writer is None else writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload
        self._cleanup_added = False

    def _autoload(self, trainer) -> None:
        """Loads the latest whole snapshot, if any (called by the trainer before it
        initializes the extensions)."""
        if not self.autoload or not os.path.isdir(trainer.out):
            return
        target = trainer if self._target is None else self._target
        for name in reversed(_snapshot_files(self.filename, trainer.out)):
            path = os.path.join(trainer.out, name)
            try:
                arrays = _read_whole(path)
            except _READ_ERRORS as error:
                warnings.warn(f'snapshot: skipping {path}, which cannot be read whole '
                              f'({type(error).__name__}: {error})', stacklevel=2)
                continue
            # Called directly, the deserializer raises a missing key at once, so that the
            # objects that handle it (a trigger of an extension added since) can.
            target.serialize(NpzDeserializer(arrays))
            return

    def initialize(self, trainer) -> None:
        if (self.n_retains > 0 and isinstance(self.filename, str) and not self._cleanup_added
                and hasattr(self.writer, '_add_cleanup_hook')):
            outdir, pattern, n_retains = trainer.out, self.filename, self.n_retains

            def cleanup():
                for name in _snapshot_files(pattern, outdir)[:-n_retains]:
                    with contextlib.suppress(FileNotFoundError):
                        os.remove(os.path.join(outdir, name))

            self.writer._add_cleanup_hook(cleanup)
            self._cleanup_added = True

    def on_error(self, trainer, exc, tb) -> None:
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer) -> None:
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer) -> None:
        target = trainer if self._target is None else self._target
        filename = self.filename
        filename = filename(trainer) if callable(filename) else filename.format(trainer)
        self.writer(filename, trainer.out, _serialize(target))

    def finalize(self) -> None:
        if hasattr(self.writer, 'finalize'):
            self.writer.finalize()


def _read_whole(path: str) -> dict:
    """Every array of the NPZ file ``path`` (reading them all checks every member)."""
    with NpzArchive(path) as archive:
        return {key: archive[key] for key in archive}


def _snapshot_files(pattern: str, outdir: str) -> list[str]:
    """The files of ``outdir`` whose names fit the format string ``pattern``, oldest first:
    ordered by the numbers in the part of the name that the fields fill (the iteration), then
    by modification time."""
    prefix = pattern.split('{')[0]
    suffix = pattern.split('}')[-1]
    found = []
    for name in os.listdir(outdir):
        if (len(name) < len(prefix) + len(suffix) or not name.startswith(prefix)
                or not name.endswith(suffix)):
            continue
        path = os.path.join(outdir, name)
        try:
            info = os.stat(path)
        except FileNotFoundError:
            continue
        if not os.path.isfile(path):
            continue
        middle = name[len(prefix):len(name) - len(suffix)]
        numbers = tuple(int(n) for n in re.findall(r'\d+', middle))
        found.append((numbers, info.st_mtime_ns, name))
    return [name for _, _, name in sorted(found)]

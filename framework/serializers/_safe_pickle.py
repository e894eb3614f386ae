"""An unpickler that resolves only an explicit allow-list of globals.

Unpickling runs whatever callables the stream names: a stream that names ``os.system`` or
``builtins.exec`` runs code. :class:`RestrictedUnpickler` resolves a global only when it is in
the allow-list it is given, and otherwise raises :class:`UnsafePickleError` before anything is
called, so a refused stream has no effect. It also refuses, before reading it, a stream whose
opcodes declare more bytes than the file holds (see
:func:`~framework.serializers._declared_sizes.check_pickle`).
"""

from __future__ import annotations

import codecs
import pickle
from collections.abc import Mapping

from framework.serializers._declared_sizes import check_pickle

#: Globals that any allow-list may include: protocol 2 pickles rebuild ``bytes`` with
#: ``_codecs.encode``.
BYTES_GLOBALS = {('_codecs', 'encode'): codecs.encode}


class UnsafePickleError(pickle.UnpicklingError):
    """A pickle stream named a global that is not allowed."""


class RestrictedUnpickler(pickle.Unpickler):
    """An unpickler whose globals come only from ``allowed``.

    Args:
        file: a seekable binary file positioned at the start of the pickle stream.
        allowed: ``(module, name) -> object``: what each allowed global resolves to.
        where: the caller and the stream, for error messages (e.g. ``"load_torch: 'a.pth'"``).
    """

    def __init__(self, file, allowed: Mapping[tuple[str, str], object], where: str):
        super().__init__(file)
        self._file = file
        self._allowed = allowed
        self._where = where

    def load(self):
        """Reads the object of the stream.

        Raises:
            UnsafePickleError: the stream names a global that is not allowed.
            DeclaredSizeError: the stream declares more bytes than the file holds.
        """
        check_pickle(self._file, self._where)
        return super().load()

    def find_class(self, module: str, name: str):
        try:
            return self._allowed[module, name]
        except KeyError:
            raise UnsafePickleError(
                f'{self._where}: refusing to load the global {module}.{name} '
                f'({self._allowed_summary()}). The file may be malicious; nothing of it was '
                'run') from None

    def _allowed_summary(self) -> str:
        modules = sorted({module for module, _ in self._allowed})
        if not modules:
            return 'no global is allowed here'
        return 'only globals of ' + ', '.join(modules) + ' are allowed here'

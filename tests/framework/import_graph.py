"""Records which modules of a package import which at module level, in a fresh interpreter.

Run as ``python import_graph.py PACKAGE``: imports the package and every module in it, and
prints as JSON ``{"edges": [[importer, imported], ...], "errors": [[module, message], ...]}``.
An edge is an import that ran while the importer's body was executing (in the body itself or in
a function the body called), whether or not the imported module was loaded already; imports in
functions called later are not module-level and are not recorded. ``from pkg import name``
counts as an import of the submodule ``pkg.name`` when there is one, else of ``pkg``. An error
is a module that could not be imported, other than for a missing third-party package.
"""

from __future__ import annotations

import builtins
import importlib.util
import json
import pkgutil
import sys
import threading


class _Recorder:
    """A finder that marks the execution of each module of ``package``, and an ``__import__``
    that records an edge from the module executing to each module of ``package`` it imports."""

    def __init__(self, package: str):
        self.package = package
        self.edges: set[tuple[str, str]] = set()
        self._executing = threading.local()
        self._import = builtins.__import__

    def _stack(self) -> list[str]:
        if not hasattr(self._executing, 'stack'):
            self._executing.stack = []
        return self._executing.stack

    def _inside(self, name: str) -> bool:
        return name == self.package or name.startswith(self.package + '.')

    def find_spec(self, name, path=None, target=None):
        if not self._inside(name):
            return None
        for finder in sys.meta_path:
            find = getattr(finder, 'find_spec', None)
            spec = None if finder is self or find is None else find(name, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, 'exec_module'):
            spec.loader.exec_module = self._executing_as(name, spec.loader.exec_module)
        return spec

    def _executing_as(self, name: str, exec_module):
        def exec_marked(module):
            stack = self._stack()
            stack.append(name)
            try:
                exec_module(module)
            finally:
                stack.pop()
        return exec_marked

    def import_(self, name, globals=None, locals=None, fromlist=(), level=0):
        module = self._import(name, globals, locals, fromlist, level)
        stack = self._stack()
        if stack:
            target = name
            if level:
                target = importlib.util.resolve_name('.' * level + name,
                                                     (globals or {}).get('__package__'))
            fromlist = fromlist or ()
            names = [f'{target}.{item}' for item in fromlist if f'{target}.{item}' in sys.modules]
            if len(names) < len(fromlist) or not fromlist:
                names.append(target)
            self.edges.update((stack[-1], imported) for imported in names
                              if self._inside(imported) and imported != stack[-1])
        return module


def main(package: str) -> None:
    recorder = _Recorder(package)
    sys.meta_path.insert(0, recorder)
    builtins.__import__ = recorder.import_
    errors = []

    def failed(name):
        error = sys.exc_info()[1]
        if not (isinstance(error, ImportError) and error.name and
                not error.name.startswith(package)):
            errors.append((name, f'{type(error).__name__}: {error}'))

    try:
        root = importlib.import_module(package)
    except Exception:
        failed(package)
    else:
        for info in pkgutil.walk_packages(root.__path__, package + '.', onerror=failed):
            try:
                importlib.import_module(info.name)
            except Exception:
                failed(info.name)
    builtins.__import__ = recorder._import
    json.dump({'edges': sorted(recorder.edges), 'errors': errors}, sys.stdout)


if __name__ == '__main__':
    main(sys.argv[1])

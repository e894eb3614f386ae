"""The engine variables of the arrays a KVStore writes (the outputs of its pulls).

MXNet gives every NDArray an engine variable; here arrays are plain NumPy or CuPy arrays, so
the store keeps a variable for each array it was asked to pull into, as long as the array
lives. A pull writes the variables of its outputs; a push reads those of its values, so that a
value pulled into and pushed again (``pushpull(key, grad, out=grad)``) is read only once the
pull has written it. Writes through other views of the same memory are not seen.
"""

from __future__ import annotations

import threading
import weakref

from framework.engine import Engine, Var


class ArrayVars:
    """The variables of arrays, made on demand and dropped with the arrays (a variable nothing
    refers to is garbage; pending work holds its own references).

    Args:
        engine: the engine the variables belong to.
    """

    def __init__(self, engine: Engine):
        self._engine = engine
        self._vars: dict[int, Var] = {}
        self._lock = threading.Lock()

    def of(self, arrays) -> tuple[Var, ...]:
        """The variables of ``arrays``, made for those that have none."""
        found = []
        with self._lock:
            for array in arrays:
                var = self._vars.get(id(array))
                if var is None:
                    var = self._vars[id(array)] = self._engine.new_var()
                    finalizer = weakref.finalize(array, self._forget, id(array))
                    finalizer.atexit = False
                found.append(var)
        return tuple(dict.fromkeys(found))

    def existing(self, arrays) -> tuple[Var, ...]:
        """The variables of those of ``arrays`` that have one (nothing to order the others
        after)."""
        with self._lock:
            found = (self._vars.get(id(array)) for array in arrays)
            return tuple(dict.fromkeys(var for var in found if var is not None))

    def _forget(self, array_id: int) -> None:
        with self._lock:
            del self._vars[array_id]

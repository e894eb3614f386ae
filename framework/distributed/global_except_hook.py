"""Abort every process of an MPI job when one of them dies of an exception (ChainerMN's hook).

Without it, a process that raises leaves the others blocked in their next collective call
forever. :func:`add_hook` replaces ``sys.excepthook`` (and ``threading.excepthook``) so that an
uncaught exception prints its traceback, names the failed rank, and calls ``MPI_Abort``:
``mpiexec`` then ends every process and exits with an error. Communicators of more than one
process add it when they are created.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback

from framework.distributed._mpi import import_mpi

_installed = False
#: How long an aborting process waits for mpiexec to relay its last words.
RELAY_SECONDS = 1.0


def _abort(exc_type, exc_value, exc_traceback) -> None:
    MPI = import_mpi('global_except_hook')
    world = MPI.COMM_WORLD
    # One write: mpiexec relays a process's output as it comes, and MPI_Abort may end the
    # relay between two writes (the traceback shown, the line naming the rank lost).
    sys.stderr.write(''.join(traceback.format_exception(exc_type, exc_value, exc_traceback))
                     + f'framework.distributed: rank {world.rank} of {world.size} failed with '
                     f'{exc_type.__name__}: {exc_value}; aborting every process '
                     '(MPI_Abort)\n')
    sys.stderr.flush()
    sys.stdout.flush()
    # MPI_Abort makes mpiexec kill every process and exit, whether or not it has relayed what
    # they wrote: on a loaded machine the message above was lost. Give the relay a moment.
    time.sleep(RELAY_SECONDS)
    world.Abort(1)


def _abort_from_thread(args) -> None:
    if issubclass(args.exc_type, SystemExit):
        return
    _abort(args.exc_type, args.exc_value, args.exc_traceback)


def add_hook() -> None:
    """Makes an uncaught exception, in any thread of this process, abort the MPI job."""
    global _installed
    if not _installed:
        sys.excepthook = _abort
        threading.excepthook = _abort_from_thread
        _installed = True

"""A job whose rank 1 fails while rank 0 waits for it in a collective.

``mpiexec -n 2 python fail_on_one_rank.py raise`` raises on rank 1; ``... kill`` kills rank 1
with SIGKILL. Either way the job must end within seconds, not hang.
"""

from __future__ import annotations

import os
import signal
import sys

from framework import distributed


def main(how: str) -> None:
    comm = distributed.create_communicator('flat')
    if comm.rank == 1:
        if how == 'raise':
            raise RuntimeError('a deliberate failure on rank 1')
        os.kill(os.getpid(), signal.SIGKILL)
    comm.allreduce_obj(comm.rank)
    print('rank 0 was not stopped', flush=True)


if __name__ == '__main__':
    main(sys.argv[1])

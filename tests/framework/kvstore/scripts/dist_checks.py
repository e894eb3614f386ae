"""The checks of the dist KVStores, run on each of 2 processes by ``mpiexec -n 2``.

Prints 'all dist checks passed' on rank 0 when every check passed on every rank.
"""

import numpy

from framework import backend, kvstore, optimizers
from framework.testing.emulated_device import EmulatedDevice

shape = (2, 3)


def pulled(kv, key):
    out = numpy.zeros(shape, numpy.float32)
    kv.pull(key, out=out)
    kv.wait_to_read(out)
    return out


def check(name):
    kv = kvstore.create(name)
    n, rank = kv.num_workers, kv.rank
    assert (kv.type, n) == (name, 2), (kv.type, n)
    kv.init(3, numpy.full(shape, 2.0 + rank, numpy.float32))   # rank 0's value wins
    numpy.testing.assert_array_equal(pulled(kv, 3), numpy.full(shape, 2))
    kv.push(3, numpy.full(shape, 8.0, numpy.float32))
    numpy.testing.assert_array_equal(pulled(kv, 3), numpy.full(shape, 8 * n))
    device = EmulatedDevice()
    kv.push(3, [device.send(numpy.ones(shape, numpy.float32))] * 4)
    numpy.testing.assert_array_equal(pulled(kv, 3), numpy.full(shape, 4 * n))

    kv.init(['a', 'b'], [numpy.zeros(shape, numpy.float32)] * 2)
    kv.push(['a', 'b'], [numpy.full(shape, rank + 1.0, numpy.float32)] * 2)
    for key in ('a', 'b'):
        numpy.testing.assert_array_equal(pulled(kv, key), numpy.full(shape, 3))

    kv.set_optimizer(optimizers.SGD(lr=0.1))
    out = device.send(numpy.zeros(shape, numpy.float32))
    kv.pushpull('a', numpy.full(shape, rank + 1.0, numpy.float32), out=out)
    kv.wait_to_read(out)
    numpy.testing.assert_allclose(backend.to_cpu(out), numpy.full(shape, 3 - 0.1 * 3),
                                  rtol=1e-6)
    kv.barrier()
    return rank


def main():
    for name in ('dist_sync', 'dist_device_sync'):
        rank = check(name)
    if rank == 0:
        print('all dist checks passed', flush=True)


if __name__ == '__main__':
    main()

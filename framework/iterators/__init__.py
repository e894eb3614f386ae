"""Dataset iterators (``from framework import iterators``), with Chainer's names and arguments.

- :class:`SerialIterator` reads the examples in the calling thread.
- :class:`MultithreadIterator` loads the next batches with threads: a pool of its own, or
  the workers of the dependency engine (``engine=framework.engine.get_engine()``).
- :class:`MultiprocessIterator` loads them with worker processes, through shared memory.
- Order samplers decide the order of each epoch: :class:`OrderSampler`,
  :class:`ShuffleOrderSampler`.

All give the same batches for the same arguments, and save with ``serialize`` the position the
consumer has reached (with the state of the shuffling), so that a resumed run continues with
the batches the interrupted one would have produced.
"""

from framework.iterators.multiprocess_iterator import MultiprocessIterator
from framework.iterators.multithread_iterator import MultithreadIterator
from framework.iterators.order_samplers import OrderSampler, ShuffleOrderSampler
from framework.iterators.serial_iterator import SerialIterator

__all__ = [
    'MultiprocessIterator', 'MultithreadIterator', 'OrderSampler', 'SerialIterator',
    'ShuffleOrderSampler',
]

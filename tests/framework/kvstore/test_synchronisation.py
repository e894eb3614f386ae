"""push and pull return at once on the threaded engine; their results are there after the
waits, and the work of one key does not hold up the others."""

import threading

import numpy

from framework import kvstore, optimizers


class GatedSGD(optimizers.SGD):
    """SGD whose updates wait for a gate to open."""

    def __init__(self, gate):
        super().__init__(lr=1.0)
        self.gate = gate

    def create_update_rule(self):
        rule = super().create_update_rule()
        rule.add_hook(lambda rule, param: self.gate.wait(timeout=10), name='gate')
        return rule


def test_pull_is_ready_after_wait_to_read_and_other_keys_go_on(threaded_engine):
    gate = threading.Event()
    kv = kvstore.create('local')
    kv.init(['slow', 'fast'], [numpy.zeros(3), numpy.zeros(3)])
    kv.set_optimizer(GatedSGD(gate))
    kv.push('slow', numpy.ones(3))            # blocked in the update until the gate opens
    slow = numpy.full(3, 7.0)
    kv.pull('slow', out=slow)                 # returns at once; waits for the push
    assert not gate.is_set()
    numpy.testing.assert_array_equal(slow, numpy.full(3, 7.0))

    kv.set_optimizer(optimizers.SGD(lr=1.0))  # later pushes are not gated
    kv.push('fast', numpy.ones(3))
    fast = numpy.zeros(3)
    kv.pull('fast', out=fast)
    kv.wait_to_read(fast)                     # while 'slow' is still blocked
    numpy.testing.assert_array_equal(fast, numpy.full(3, -1.0))
    numpy.testing.assert_array_equal(slow, numpy.full(3, 7.0))

    gate.set()
    kv.wait_to_read(slow)
    numpy.testing.assert_array_equal(slow, numpy.full(3, -1.0))


def test_wait_for_all_waits_for_every_pull(threaded_engine):
    kv = kvstore.create('device')
    keys = list(range(20))
    kv.init(keys, [numpy.full(1000, k, numpy.float64) for k in keys])
    outs = [numpy.zeros(1000) for _ in keys]
    for _ in range(3):
        kv.push(keys, [[numpy.ones(1000)] * 2 for _ in keys])
        kv.pull(keys, out=outs)
    threaded_engine.wait_for_all()
    for out in outs:
        numpy.testing.assert_array_equal(out, numpy.full(1000, 2.0))

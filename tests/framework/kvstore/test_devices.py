"""Values from several devices: the emulated device stands in for GPUs next to the host."""

import numpy
import pytest

from framework import backend, kvstore, optimizers
from framework.testing.emulated_device import EmulatedArray, EmulatedDevice

shape = (2, 3)


def on(device, array):
    return backend.get_device(device).send(numpy.asarray(array, numpy.float32))


@pytest.mark.parametrize('kind', ['local', 'device'])
def test_values_of_several_devices_are_summed_and_pulled_to_each(engine, kind):
    kv = kvstore.create(kind)
    kv.init(3, on('@emulated', numpy.ones(shape) * 2))
    values = [on('@emulated', numpy.ones(shape)) for _ in range(3)] + [numpy.ones(shape)]
    kv.push(3, values)
    outs = [on('@emulated', numpy.zeros(shape)), numpy.zeros(shape, numpy.float32),
            on('@emulated', numpy.zeros(shape))]
    kv.pull(3, out=outs)
    for out in outs:
        kv.wait_to_read(out)
        numpy.testing.assert_array_equal(backend.to_cpu(out), numpy.full(shape, 4))
    assert [type(out) for out in outs] == [EmulatedArray, numpy.ndarray, EmulatedArray]


def test_a_device_store_merges_on_the_device_of_the_values(engine):
    kv = kvstore.create('device')
    kv.init('w', numpy.zeros(shape, numpy.float32))
    kv.set_optimizer(optimizers.MomentumSGD(lr=0.5))
    kv.push('w', [on('@emulated', numpy.ones(shape))] * 2)
    engine.wait_for_all()
    # The weight and the momentum moved to the emulated device, where the sum was made.
    entry = kv._entries['w']
    assert entry.device == EmulatedDevice()
    assert type(entry.value) is EmulatedArray
    assert type(entry.rule.state['v']) is EmulatedArray
    out = numpy.zeros(shape, numpy.float32)
    kv.pull('w', out=out)
    kv.wait_to_read(out)
    numpy.testing.assert_array_equal(out, numpy.full(shape, -1))


def test_a_local_store_merges_in_host_memory(engine):
    kv = kvstore.create('local')
    kv.init(0, on('@emulated', numpy.zeros(shape)))
    kv.push(0, [on('@emulated', numpy.ones(shape))] * 2)
    engine.wait_for_all()
    assert type(kv._entries[0].value) is numpy.ndarray

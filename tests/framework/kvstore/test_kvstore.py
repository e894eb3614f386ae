"""MXNet's documented examples of init, push, pull and set_optimizer, on 'local' and 'device'
stores under both engines."""

import numpy
import pytest

from framework import kvstore, optimizers

shape = (2, 3)


@pytest.fixture(params=['local', 'device'])
def kv(request, engine):
    return kvstore.create(request.param)


def pulled(kv, key, n=1):
    outs = [numpy.zeros(shape, numpy.float32) for _ in range(n)]
    kv.pull(key, out=outs if n > 1 else outs[0])
    for out in outs:
        kv.wait_to_read(out)
    return outs if n > 1 else outs[0]


def test_type_rank_and_num_workers(kv):
    assert kv.type in ('local', 'device')
    assert (kv.rank, kv.num_workers) == (0, 1)
    kv.barrier()


def test_init_then_pull(kv):
    kv.init(3, numpy.ones(shape) * 2)
    numpy.testing.assert_array_equal(pulled(kv, 3), numpy.full(shape, 2))


def test_push_replaces_the_value(kv):
    kv.init(3, numpy.ones(shape) * 2)
    kv.push(3, numpy.ones(shape) * 8)
    numpy.testing.assert_array_equal(pulled(kv, 3), numpy.full(shape, 8))


def test_a_list_of_values_is_summed(kv):
    kv.init(3, numpy.ones(shape) * 2)
    kv.push(3, [numpy.ones(shape)] * 4)
    numpy.testing.assert_array_equal(pulled(kv, 3), numpy.full(shape, 4))


def test_pull_into_several_outputs(kv):
    kv.init(3, numpy.ones(shape) * 2)
    for out in pulled(kv, 3, n=4):
        numpy.testing.assert_array_equal(out, numpy.full(shape, 2))


def test_set_optimizer_updates_on_push(kv):
    kv.init(3, numpy.ones(shape) * 2)
    kv.set_optimizer(optimizers.SGD(lr=0.1))
    kv.push(3, numpy.ones(shape))
    numpy.testing.assert_allclose(pulled(kv, 3), numpy.full(shape, 2 - 0.1), rtol=1e-6)
    kv.push(3, [numpy.ones(shape)] * 2)
    numpy.testing.assert_allclose(pulled(kv, 3), numpy.full(shape, 2 - 0.1 - 0.2), rtol=1e-6)


def test_string_keys(kv):
    kv.init('3', numpy.ones(shape) * 2)
    kv.push('3', numpy.ones(shape) * 8)
    numpy.testing.assert_array_equal(pulled(kv, '3'), numpy.full(shape, 8))


def test_lists_of_keys(kv):
    keys = [5, 7, 9]
    kv.init(keys, [numpy.ones(shape)] * len(keys))
    kv.push(keys, [[numpy.ones(shape)] * 4] * len(keys))
    outs = [[numpy.zeros(shape, numpy.float32)] * 2 for _ in keys]
    kv.pull(keys, out=outs)
    for out in outs:
        kv.wait_to_read(out[0])
        numpy.testing.assert_array_equal(out[0], numpy.full(shape, 4))
    kv.push(keys, [numpy.ones(shape) * k for k in keys])
    for key in keys:
        numpy.testing.assert_array_equal(pulled(kv, key), numpy.full(shape, key))


def test_pushpull_writes_into_the_values_without_out(kv):
    kv.init('w', numpy.zeros(shape))
    grads = [numpy.ones(shape), numpy.ones(shape) * 2]
    kv.pushpull('w', grads)
    for grad in grads:
        kv.wait_to_read(grad)
        numpy.testing.assert_array_equal(grad, numpy.full(shape, 3))
    out = numpy.zeros(shape)
    kv.pushpull('w', numpy.ones(shape) * 5, out=out)
    kv.wait_to_read(out)
    numpy.testing.assert_array_equal(out, numpy.full(shape, 5))


def test_pushpull_of_its_own_output_reads_it_after_the_pull(kv):
    kv.init(0, numpy.zeros(shape))
    kv.set_optimizer(optimizers.SGD(lr=1.0))
    grad = numpy.ones(shape)
    for _ in range(5):
        kv.pushpull(0, grad, out=grad)
    kv.wait_to_read(grad)
    # 0 - 1 = -1; -1 - (-1) = 0; 0 - 0 = 0 ...: each push reads the value pulled before it.
    numpy.testing.assert_array_equal(grad, numpy.zeros(shape))

"""Optimizer states saved and loaded: a store restarted from them continues identically."""

import os

import numpy
import pytest

from framework import kvstore, optimizers
from framework.serializers import NpzMismatchError

keys = ['a', 'b']


def make(weights):
    kv = kvstore.create('local')
    kv.init(keys, weights)
    kv.set_optimizer(optimizers.MomentumSGD(lr=0.1, momentum=0.9))
    return kv


def run(kv, first_step, steps):
    outs = [numpy.zeros((2, 3), numpy.float32), numpy.zeros(4, numpy.float32)]
    for step in range(first_step, first_step + steps):
        kv.pushpull(keys, [numpy.full((2, 3), step + 1.0, numpy.float32),
                           numpy.full(4, -1.0, numpy.float32)], out=outs)
    for out in outs:
        kv.wait_to_read(out)
    return outs


def test_round_trip(engine, tmp_path):
    path = tmp_path / 'states.npz'
    kv = make([numpy.ones((2, 3), numpy.float32), numpy.zeros(4, numpy.float32)])
    weights = run(kv, 0, 3)
    kv.save_optimizer_states(path)
    assert os.listdir(tmp_path) == ['states.npz']  # written atomically: no temporary left
    expected = run(kv, 3, 2)

    restored = make(weights)
    restored.load_optimizer_states(path)
    for got, want in zip(run(restored, 3, 2), expected):
        numpy.testing.assert_array_equal(got, want)


def test_states_of_another_shape_are_refused(engine, tmp_path):
    path = tmp_path / 'states.npz'
    kv = make([numpy.ones((2, 3), numpy.float32), numpy.zeros(4, numpy.float32)])
    run(kv, 0, 1)
    kv.save_optimizer_states(path)
    other = kvstore.create('local')
    other.init('a', numpy.ones((3, 2), numpy.float32))
    other.set_optimizer(optimizers.MomentumSGD())
    other.push('a', numpy.ones((3, 2), numpy.float32))
    with pytest.raises(NpzMismatchError, match='a/v'):
        other.load_optimizer_states(path)

"""Bad input is refused at the call, with the key, the expected and the actual value."""

import numpy
import pytest

from framework import kvstore, optimizers


def test_unknown_type_names_the_valid_ones():
    with pytest.raises(ValueError, match="'local', 'device', 'dist_sync', 'dist_device_sync', "
                                         "but got 'dist_async'"):
        kvstore.create('dist_async')


def test_pull_of_an_uninitialised_key(engine):
    kv = kvstore.create('local')
    with pytest.raises(KeyError, match=r"pull: key 'w' is not initialised; call init\('w'"):
        kv.pull('w', out=numpy.zeros(2))
    with pytest.raises(KeyError, match='push: key 4 is not initialised'):
        kv.push(4, numpy.zeros(2))


def test_init_twice(engine):
    kv = kvstore.create('local')
    kv.init(3, numpy.zeros(2))
    with pytest.raises(ValueError, match='init: key 3 is initialised already'):
        kv.init(3, numpy.zeros(2))


def test_shape_mismatch_names_key_expected_and_actual_shapes(engine):
    kv = kvstore.create('device')
    kv.init(3, numpy.zeros((2, 3)))
    with pytest.raises(ValueError, match=r'push: value for key 3 must have the shape the key was '
                                         r'initialised with, \(2, 3\), but got \(3, 2\)'):
        kv.push(3, [numpy.zeros((2, 3)), numpy.zeros((3, 2))])
    with pytest.raises(ValueError, match=r'pull: out for key 3 .* \(2, 3\), but got \(6,\)'):
        kv.pull(3, out=numpy.zeros(6))


def test_bad_keys_values_and_optimizers(engine):
    kv = kvstore.create('local')
    with pytest.raises(TypeError, match='init: a key must be an int or a str, but got float'):
        kv.init(1.5, numpy.zeros(2))
    with pytest.raises(ValueError, match='with a list of 2 keys, value must be a list of 2 '
                                         'entries, one per key, but got 1 entries'):
        kv.init([1, 2], [numpy.zeros(2)])
    with pytest.raises(TypeError, match='init: value for key 1 must be an array, but got list'):
        kv.init(1, [numpy.zeros(2)])
    with pytest.raises(ValueError, match='pull: out must be given'):
        kv.pull(1)
    with pytest.raises(TypeError, match='set_optimizer: optimizer must be a GradientMethod'):
        kv.set_optimizer('sgd')
    with pytest.raises(RuntimeError, match='save_optimizer_states: no optimizer'):
        kv.save_optimizer_states('unused.npz')


def test_an_error_of_the_work_is_raised_by_the_wait(engine):
    kv = kvstore.create('local')
    kv.init(0, numpy.zeros(2, numpy.int32))
    kv.set_optimizer(optimizers.SGD(lr=0.1))
    kv.push(0, numpy.ones(2, numpy.int32))
    out = numpy.zeros(2, numpy.int32)
    kv.pull(0, out=out)
    with pytest.raises(Exception, match='KVStore.push of key 0'):
        kv.wait_to_read(out)

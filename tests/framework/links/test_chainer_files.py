"""A Chainer 7 ``save_npz`` file (``tests/data/tiny_chain.npz``, see ``tests/data/README.md``)
loads into the same model built from these layers, with the same keys and shapes, and the
model then gives Chainer's output (``tiny_chain_expected.npz``)."""

import pathlib

import numpy
import pytest

import framework
import framework.functions as F
import framework.links as L
from framework import backend
from framework.testing import devices

DATA = pathlib.Path(__file__).resolve().parents[2] / 'data'


class NpzReader:
    """Chainer's deserializer protocol over the arrays of an npz file, recording the keys."""

    def __init__(self, arrays, read, path=''):
        self.arrays, self.read, self.path = arrays, read, path

    def __getitem__(self, key):
        return NpzReader(self.arrays, self.read, self.path + key + '/')

    def __call__(self, key, value):
        key = self.path + key
        self.read.add(key)
        data = self.arrays[key]
        if value is None:
            return data
        if backend.is_array(value):
            assert value.shape == data.shape and value.dtype == data.dtype, key
            value[...] = backend.get_device_from_array(value).send(data)
            return value
        return type(value)(data)


class TinyChain(framework.Chain):
    def __init__(self, lazy=False):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(None if lazy else 3, 4, 3, pad=1)
            self.bn = L.BatchNormalization(4)
            self.fc = L.Linear(None if lazy else 256, 5)

    def forward(self, x):
        return self.fc(F.relu(self.bn(self.conv(x))))


@pytest.mark.parametrize('lazy', [False, True])
@pytest.mark.parametrize('device', devices(), ids=str)
def test_loads_and_gives_chainers_output(device, lazy):
    model = TinyChain(lazy).to_device(device)
    read = set()
    with numpy.load(DATA / 'tiny_chain.npz') as f:
        arrays = dict(f)
    model.serialize(NpzReader(arrays, read))
    assert read == set(arrays)
    assert model.bn.N == 0 and type(model.bn.N) is int
    with numpy.load(DATA / 'tiny_chain_expected.npz') as f:
        x, y_eval = f['x'], f['y_eval']
    with framework.using_config('train', False):
        y = model(device.send(x))
    numpy.testing.assert_allclose(backend.to_cpu(y.array), y_eval, rtol=1e-4, atol=1e-5)
